//! Bounded reading of input reptest does not control: requests on stdin (`reptest eval`,
//! `reptest serve`, the fixture adapter), an external adapter's answers, and files named on
//! the command line (a gate baseline, a policy's expectations, an `adapters.toml`).
//!
//! A [`LineReader`] costs at most its limit plus one read chunk of memory whatever the
//! input holds: a line longer than the limit is reported as [`Line::TooLong`] as soon as
//! the limit is passed, and the rest of it is read and dropped up to its newline by the
//! next read, so the line after it is read as usual. [`read_text`] reads a whole file up
//! to a size limit.
//!
//! ```
//! use reptest_core::lines::{Line, LineReader};
//!
//! let input = format!("short\n{}\nafter\n", "x".repeat(100));
//! let mut lines = LineReader::new(input.as_bytes(), 10);
//! assert!(matches!(lines.next_line().unwrap(), Some(Line::Complete(b"short"))));
//! assert!(matches!(lines.next_line().unwrap(), Some(Line::TooLong)));
//! assert!(matches!(lines.next_line().unwrap(), Some(Line::Complete(b"after"))));
//! assert!(lines.next_line().unwrap().is_none());
//! ```

use std::io::{self, Read};
use std::path::Path;

/// The longest request line reptest reads (`reptest eval`, `reptest serve`, the fixture
/// adapter; harness/PROTOCOL.md, "Sizes"): 16 MiB. The largest body reptest itself sends
/// is the corpus's 3,000,000-byte case (`corpus/rfc/size-limits.toml`, past the
/// 512,000-byte parse limit of RFC 9309 §2.5), 4,000,000 bytes of base64: 16 MiB holds it
/// four times over with its queries, and a 2,000,000-byte body given to `reptest eval` as
/// a JSON string even if every byte of it is escaped (`\u0000`, six bytes).
pub const MAX_REQUEST_LINE: usize = 16 << 20;

/// The largest text file reptest reads whole (a baseline, a policy's expectations, an
/// `adapters.toml`): 16 MiB, far above any real one (a baseline of the whole corpus is
/// under 100 KB).
pub const MAX_TEXT_FILE: u64 = 16 << 20;

/// Bytes asked of the source at a time.
const CHUNK: usize = 64 << 10;

/// One line of input, as [`LineReader::next_line`] reads it.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A line, without the `\n` that ended it.
    Complete(&'a [u8]),
    /// The last bytes of the input, which ended without a `\n`.
    Unterminated(&'a [u8]),
    /// A line longer than the limit. Its bytes are not kept; what is left of it is skipped
    /// (read and dropped up to its `\n`) by the next read.
    TooLong,
}

/// Lines of a [`Read`] source, each of at most a limit of bytes (see the module docs).
#[derive(Debug)]
pub struct LineReader<R> {
    source: R,
    buffer: Vec<u8>,
    /// Start of the unread part of `buffer`.
    start: usize,
    /// `buffer[start..scanned]` holds no newline.
    scanned: usize,
    limit: usize,
    /// The rest of a line found too long is still to be dropped.
    skipping: bool,
    /// The source has ended.
    ended: bool,
}

impl<R: Read> LineReader<R> {
    /// Reads lines of at most `limit` bytes (without the `\n`) from `source`.
    pub fn new(source: R, limit: usize) -> Self {
        LineReader {
            source,
            buffer: Vec::new(),
            start: 0,
            scanned: 0,
            limit,
            skipping: false,
            ended: false,
        }
    }

    /// The next line, or `None` once the input has ended. An error of the source (a
    /// timeout of a source that has deadlines) leaves what was read buffered: the next
    /// call goes on where this one stopped.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.next_line_within(self.limit)
    }

    /// [`LineReader::next_line`] with another limit for this line.
    pub fn next_line_within(&mut self, limit: usize) -> io::Result<Option<Line<'_>>> {
        self.skip_rest_of_long_line()?;
        loop {
            if let Some(at) = memchr::memchr(b'\n', &self.buffer[self.scanned..]) {
                let (start, end) = (self.start, self.scanned + at);
                self.start = end + 1;
                self.scanned = self.start;
                if end - start > limit {
                    return Ok(Some(Line::TooLong));
                }
                return Ok(Some(Line::Complete(&self.buffer[start..end])));
            }
            self.scanned = self.buffer.len();
            if self.buffer.len() - self.start > limit {
                // Not kept: memory stays bounded however long the line goes on.
                self.buffer = Vec::new();
                (self.start, self.scanned) = (0, 0);
                self.skipping = true;
                return Ok(Some(Line::TooLong));
            }
            if self.ended {
                if self.start == self.buffer.len() {
                    return Ok(None);
                }
                let start = self.start;
                self.start = self.buffer.len();
                self.scanned = self.start;
                return Ok(Some(Line::Unterminated(&self.buffer[start..])));
            }
            self.fill()?;
        }
    }

    /// Whether a whole line is already buffered (the next [`LineReader::next_line`] needs
    /// no read): a writer answering line by line flushes when none is.
    pub fn has_buffered_line(&self) -> bool {
        memchr::memchr(b'\n', &self.buffer[self.scanned..]).is_some()
    }

    /// Everything left until the input ends, cut once more than `limit` bytes are
    /// buffered (the line limits do not apply).
    pub fn read_rest(&mut self, limit: usize) -> io::Result<Vec<u8>> {
        self.skip_rest_of_long_line()?;
        while !self.ended && self.buffer.len() - self.start <= limit {
            self.fill()?;
        }
        let rest = self.buffer.split_off(self.start);
        (self.start, self.scanned) = (0, 0);
        self.buffer.clear();
        Ok(rest)
    }

    /// The source, e.g. to set its deadline.
    pub fn source_mut(&mut self) -> &mut R {
        &mut self.source
    }

    /// Drops the rest of a line found too long, up to and including its newline.
    fn skip_rest_of_long_line(&mut self) -> io::Result<()> {
        while self.skipping {
            if let Some(at) = memchr::memchr(b'\n', &self.buffer[self.start..]) {
                self.start += at + 1;
                self.scanned = self.start;
                self.skipping = false;
            } else {
                self.buffer.clear();
                (self.start, self.scanned) = (0, 0);
                if self.ended {
                    self.skipping = false;
                } else {
                    self.fill()?;
                }
            }
        }
        Ok(())
    }

    /// Reads one chunk from the source into the buffer, after dropping the part already
    /// read; at the end of the source, sets `ended`.
    fn fill(&mut self) -> io::Result<()> {
        if self.start > 0 {
            self.buffer.drain(..self.start);
            self.scanned -= self.start;
            self.start = 0;
        }
        let old = self.buffer.len();
        self.buffer.resize(old + CHUNK, 0);
        loop {
            match self.source.read(&mut self.buffer[old..]) {
                Ok(read) => {
                    self.buffer.truncate(old + read);
                    self.ended = read == 0;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buffer.truncate(old);
                    return Err(e);
                }
            }
        }
    }
}

/// A whole text file of at most `limit` bytes: one that is larger (or not UTF-8) is an
/// [`io::ErrorKind::InvalidData`] error, and no more than `limit + 1` bytes of it are read.
pub fn read_text(path: &Path, limit: u64) -> io::Result<String> {
    let bytes = read_bytes(std::fs::File::open(path)?, limit)?;
    String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Everything `reader` gives, at most `limit` bytes: more (`/dev/zero`, an endless pipe)
/// is an [`io::ErrorKind::InvalidData`] error, and no more than `limit + 1` bytes are read.
pub fn read_bytes(reader: impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {limit} bytes, the limit for a file reptest reads whole"),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `input` read with `limit`, `None` for a line too long.
    fn lines(input: &[u8], limit: usize) -> Vec<Option<Vec<u8>>> {
        let mut reader = LineReader::new(input, limit);
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().unwrap() {
            out.push(match line {
                Line::Complete(text) | Line::Unterminated(text) => Some(text.to_vec()),
                Line::TooLong => None,
            });
        }
        out
    }

    #[test]
    fn a_line_at_the_limit_is_read_and_one_byte_more_is_too_long() {
        let input = [&b"1234\n12345\n"[..], &[b'x'; 300_000], b"\nend"].concat();
        assert_eq!(
            lines(&input, 4),
            [Some(b"1234".to_vec()), None, None, Some(b"end".to_vec())]
        );
    }

    #[test]
    fn a_too_long_line_is_reported_before_its_end_and_the_next_line_is_read() {
        /// 64 MiB of `a` without a newline, then a short line; fails the test if the
        /// reader keeps more than the limit plus a chunk.
        struct Endless(u64);
        impl Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let tail = b"\nnext\n";
                let n = if self.0 > 0 {
                    let n = buf.len().min(self.0 as usize);
                    buf[..n].fill(b'a');
                    self.0 -= n as u64;
                    n
                } else {
                    let n = buf.len().min(tail.len());
                    buf[..n].copy_from_slice(&tail[..n]);
                    n
                };
                Ok(n)
            }
        }
        let mut reader = LineReader::new(Endless(64 << 20), 1 << 20);
        assert_eq!(reader.next_line().unwrap(), Some(Line::TooLong));
        // The line's first MiB is let go at once, and its rest is read a chunk at a time.
        assert_eq!(reader.buffer.capacity(), 0);
        assert_eq!(
            reader.next_line().unwrap(),
            Some(Line::Complete(&b"next"[..]))
        );
        assert!(reader.buffer.capacity() <= 2 * CHUNK);
    }

    #[test]
    fn the_last_line_may_lack_its_newline() {
        let mut reader = LineReader::new(&b"a\nb"[..], 10);
        assert_eq!(reader.next_line().unwrap(), Some(Line::Complete(&b"a"[..])));
        assert!(!reader.has_buffered_line());
        assert_eq!(
            reader.next_line().unwrap(),
            Some(Line::Unterminated(&b"b"[..]))
        );
        assert_eq!(reader.next_line().unwrap(), None);
    }

    #[test]
    fn a_text_file_over_the_limit_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.toml");
        std::fs::write(&path, "x = 1\n").unwrap();
        assert_eq!(read_text(&path, 6).unwrap(), "x = 1\n");
        let err = read_text(&path, 5).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("larger than 5 bytes"), "{err}");
    }
}
