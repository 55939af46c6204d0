//! Files the command-line tools read and write, kept safe for long runs
//! (RELIABILITY.md, findings 28 to 30):
//!
//! - [`Lines`] and [`read_text`] read text with a bound on a line and on
//!   the whole file, so that `/dev/zero` or a 20 MB line is refused with a
//!   message naming the file and the line instead of filling the memory.
//! - [`Replace`] writes a file that a run replaces: a temporary file beside
//!   it is created when the run starts (an unwritable place is found before
//!   any work), written, and renamed over the target only when the run has
//!   something to put in it; otherwise the old file stays as it was.
//! - [`Append`] adds to a file that runs share (game records, save files):
//!   what is in it stays, the first line written starts on a fresh line,
//!   and a file this run created and left empty is removed again.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// How much a reader takes: the longest line and the largest file, in
/// bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The longest line, in bytes.
    pub line: usize,
    /// The largest file, in bytes.
    pub file: u64,
}

/// Sizes in messages: `1 MiB`, `64 KiB`, `100 bytes`.
fn size(n: u64) -> String {
    if n >= 1 << 30 && n.is_multiple_of(1 << 30) {
        format!("{} GiB", n >> 30)
    } else if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// One line read: its number (from 1), its text without the line feed
/// (and a carriage return before it), and whether a line feed ended it
/// (the last line of a file may lack one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its number, counted from 1.
    pub number: usize,
    /// Its text, without the line feed (and a carriage return before it).
    pub text: String,
    /// Whether a line feed ended it.
    pub ended: bool,
}

/// The lines of a reader, each at most `bounds.line` bytes and all of them
/// at most `bounds.file`; an error (naming `name` and the line) ends them.
pub struct Lines<R> {
    r: R,
    name: String,
    bounds: Bounds,
    read: u64,
    number: usize,
    done: bool,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `r`, named `name` in errors, read within `bounds`.
    pub fn new(r: R, name: &str, bounds: Bounds) -> Lines<R> {
        Lines {
            r,
            name: name.to_string(),
            bounds,
            read: 0,
            number: 0,
            done: false,
            buf: Vec::new(),
        }
    }

    /// The next line, or `None` at the end.
    fn next_line(&mut self) -> Result<Option<Line>, String> {
        self.buf.clear();
        let number = self.number + 1;
        let ended = loop {
            let chunk = match self.r.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(format!("{}:{number}: {e}", self.name)),
            };
            if chunk.is_empty() {
                break false;
            }
            let (content, take, found) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, i + 1, true),
                None => (chunk.len(), chunk.len(), false),
            };
            if self.buf.len() + content > self.bounds.line {
                return Err(format!(
                    "{}:{number}: a line longer than {}, the most this reader takes",
                    self.name,
                    size(self.bounds.line as u64)
                ));
            }
            self.buf.extend_from_slice(&chunk[..content]);
            self.r.consume(take);
            self.read += take as u64;
            if self.read > self.bounds.file {
                return Err(format!(
                    "{}: larger than {}, the most this reader takes",
                    self.name,
                    size(self.bounds.file)
                ));
            }
            if found {
                break true;
            }
        };
        if !ended && self.buf.is_empty() {
            return Ok(None);
        }
        self.number = number;
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        let text = String::from_utf8(std::mem::take(&mut self.buf))
            .map_err(|_| format!("{}:{number}: not UTF-8 text", self.name))?;
        Ok(Some(Line {
            number,
            text,
            ended,
        }))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Result<Line, String>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let r = self.next_line().transpose();
        if !matches!(r, Some(Ok(_))) {
            self.done = true;
        }
        r
    }
}

/// Open `path` for [`Lines`]; the messages name it as it was given.
pub fn lines(path: &Path, bounds: Bounds) -> Result<Lines<BufReader<File>>, String> {
    let name = path.display().to_string();
    let f = File::open(path).map_err(|e| format!("{name}: {e}"))?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(format!("{name}: a directory, not a file"));
    }
    Ok(Lines::new(BufReader::new(f), &name, bounds))
}

/// The whole text of `path` within `bounds`, its lines joined by `\n`
/// (every line, the last one too, ends in one).
pub fn read_text(path: &Path, bounds: Bounds) -> Result<String, String> {
    let mut text = String::new();
    for l in lines(path, bounds)? {
        text.push_str(&l?.text);
        text.push('\n');
    }
    Ok(text)
}

/// A number that makes temporary names unique within the process.
static SERIAL: AtomicU64 = AtomicU64::new(0);

/// A file the run replaces when it ends with something to put in it.
pub struct Replace {
    target: PathBuf,
    tmp: PathBuf,
    file: Option<File>,
}

impl Replace {
    /// Create the temporary file beside `path` now: an error here (no such
    /// directory, no permission, a directory in the way) means the run
    /// cannot write its output and should not start.
    pub fn begin(path: &Path) -> Result<Replace, String> {
        let name = path.display();
        let file_name = path
            .file_name()
            .ok_or_else(|| format!("{name}: not a file name"))?;
        if path.is_dir() {
            return Err(format!("{name}: a directory, not a file"));
        }
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(file_name);
        tmp_name.push(format!(
            ".{}-{}.tmp",
            std::process::id(),
            SERIAL.fetch_add(1, Ordering::Relaxed)
        ));
        let tmp = path.with_file_name(tmp_name);
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| format!("{name}: cannot write here: {e}"))?;
        Ok(Replace {
            target: path.to_path_buf(),
            tmp,
            file: Some(file),
        })
    }

    /// The file the run replaces.
    pub fn path(&self) -> &Path {
        &self.target
    }

    /// Write `text` and rename it over the target, on disk before the call
    /// returns. On an error the target is as it was.
    pub fn commit(mut self, text: &[u8]) -> Result<(), String> {
        let name = self.target.display().to_string();
        let Some(mut f) = self.file.take() else {
            return Err(format!("{name}: already written"));
        };
        let written = f
            .write_all(text)
            .and_then(|()| f.sync_all())
            .and_then(|()| std::fs::rename(&self.tmp, &self.target));
        drop(f);
        written.map_err(|e| {
            let _ = std::fs::remove_file(&self.tmp);
            format!("{name}: {e}")
        })
    }
}

impl Drop for Replace {
    /// Not committed: the temporary file goes, the target stays.
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// A file the run adds lines to.
pub struct Append {
    path: PathBuf,
    file: File,
    /// The file did not end in a line feed: the first write starts one.
    fresh_line: bool,
    created: bool,
    written: bool,
}

impl Append {
    /// Open `path` for appending, creating it if it is missing.
    pub fn open(path: &Path) -> Result<Append, String> {
        let name = path.display();
        if path.is_dir() {
            return Err(format!("{name}: a directory, not a file"));
        }
        let (mut file, created) = match OpenOptions::new()
            .read(true)
            .append(true)
            .create_new(true)
            .open(path)
        {
            Ok(f) => (f, true),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => (
                OpenOptions::new()
                    .read(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("{name}: {e}"))?,
                false,
            ),
            Err(e) => return Err(format!("{name}: {e}")),
        };
        let len = file.metadata().map_err(|e| format!("{name}: {e}"))?.len();
        let mut fresh_line = false;
        if len > 0 && file.metadata().is_ok_and(|m| m.is_file()) {
            let mut last = [0u8];
            file.seek(SeekFrom::End(-1))
                .and_then(|_| file.read_exact(&mut last))
                .map_err(|e| format!("{name}: {e}"))?;
            fresh_line = last[0] != b'\n';
        }
        Ok(Append {
            path: path.to_path_buf(),
            file,
            fresh_line,
            created,
            written: false,
        })
    }

    /// The file this writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append `text` (whole lines) in one write, flushed to the file.
    pub fn write(&mut self, text: &str) -> io::Result<()> {
        if text.is_empty() {
            return Ok(());
        }
        let mut buf = Vec::with_capacity(text.len() + 1);
        if self.fresh_line {
            buf.push(b'\n');
        }
        buf.extend_from_slice(text.as_bytes());
        self.file.write_all(&buf)?;
        self.file.flush()?;
        self.fresh_line = false;
        self.written = true;
        Ok(())
    }
}

impl Drop for Append {
    /// A file this run created and wrote nothing to is removed.
    fn drop(&mut self) {
        if self.created && !self.written {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// FNV-1a, 64 bits: the checksum of a save file's record and the rules
/// fingerprint's hash. Stable across builds and machines.
pub(crate) fn fnv1a(h: u64, bytes: &[u8]) -> u64 {
    let mut h = h;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// FNV-1a's starting value.
pub(crate) const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Bounds = Bounds { line: 8, file: 64 };

    fn all(text: &[u8], b: Bounds) -> Result<Vec<Line>, String> {
        Lines::new(text, "f", b).collect()
    }

    #[test]
    fn lines_are_read_with_their_numbers_and_ends() {
        let l = all(b"ab\r\n\ncd", SMALL).unwrap();
        let got: Vec<_> = l
            .iter()
            .map(|l| (l.number, l.text.as_str(), l.ended))
            .collect();
        assert_eq!(got, [(1, "ab", true), (2, "", true), (3, "cd", false)]);
        assert!(all(b"", SMALL).unwrap().is_empty());
        // A line of exactly the bound is taken, one byte more is not.
        assert_eq!(all(b"12345678\n", SMALL).unwrap()[0].text, "12345678");
        assert_eq!(all(b"12345678", SMALL).unwrap()[0].text, "12345678");
    }

    #[test]
    fn a_long_line_and_a_large_file_are_refused_naming_them() {
        let e = all(b"ok\n123456789\n", SMALL).unwrap_err();
        assert_eq!(
            e,
            "f:2: a line longer than 8 bytes, the most this reader takes"
        );
        let e = all(b"123456789", SMALL).unwrap_err();
        assert!(e.starts_with("f:1: a line longer"), "{e}");
        let e = all(&b"1234\n".repeat(20), SMALL).unwrap_err();
        assert_eq!(e, "f: larger than 64 bytes, the most this reader takes");
        let e = all(b"\xff\xfe\n", SMALL).unwrap_err();
        assert_eq!(e, "f:1: not UTF-8 text");
    }

    /// RELIABILITY.md finding 30: a reader of `/dev/zero` stops at the line
    /// bound instead of filling the memory.
    #[cfg(unix)]
    #[test]
    fn dev_zero_is_refused_at_the_line_bound() {
        let b = Bounds {
            line: 1 << 20,
            file: 1 << 30,
        };
        let e = read_text(Path::new("/dev/zero"), b).unwrap_err();
        assert_eq!(
            e,
            "/dev/zero:1: a line longer than 1 MiB, the most this reader takes"
        );
    }

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("choro-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_replaced_file_stays_until_the_commit() {
        let d = dir("replace");
        let p = d.join("out.txt");
        std::fs::write(&p, "old\n").unwrap();
        let r = Replace::begin(&p).unwrap();
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 2);
        drop(r);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old\n");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        Replace::begin(&p).unwrap().commit(b"new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new\n");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        let e = Replace::begin(&d.join("no/such/dir/out.txt"))
            .err()
            .unwrap();
        assert!(e.contains("cannot write here"), "{e}");
        assert!(Replace::begin(&d).is_err());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn appending_keeps_the_file_and_starts_a_fresh_line() {
        let d = dir("append");
        let p = d.join("log.txt");
        std::fs::write(&p, "one").unwrap();
        let mut a = Append::open(&p).unwrap();
        a.write("two\n").unwrap();
        a.write("three\n").unwrap();
        drop(a);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "one\ntwo\nthree\n");
        // Opened and left: nothing changes; a file it created goes again.
        drop(Append::open(&p).unwrap());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "one\ntwo\nthree\n");
        let q = d.join("new.txt");
        drop(Append::open(&q).unwrap());
        assert!(!q.exists());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
