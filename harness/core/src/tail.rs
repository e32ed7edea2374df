//! The last lines of a stream, bounded: an adapter's or a crawler's stderr (or stdout)
//! is read to its end while only the start of each of its last lines is kept, so a
//! process that floods its output never grows reptest's memory (nor blocks on a full pipe).
//! [`drain_into`] reads a stream into a [`Tail`]; error reports show [`Tail::lines`].

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::{Mutex, PoisonError};

/// How many lines are kept (the last ones).
pub const KEPT_LINES: usize = 20;
/// How many bytes of one line are kept; the rest of the line is dropped and `…` marks it.
pub const LINE_BYTES: usize = 300;
/// The read buffer of [`drain_into`].
const CHUNK: usize = 8 * 1024;

/// The last lines of one stream, bounded: at most [`KEPT_LINES`] lines of at most
/// [`LINE_BYTES`] bytes each (plus a marker), and the total byte count.
#[derive(Debug, Default)]
pub struct Tail {
    lines: VecDeque<String>,
    /// The line being read (at most `LINE_BYTES` bytes of it).
    current: Vec<u8>,
    /// The current line is longer than `LINE_BYTES`.
    cut: bool,
    /// Every byte read, kept or not.
    total: u64,
}

impl Tail {
    /// Takes in the next bytes of the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        self.total = self.total.saturating_add(bytes.len() as u64);
        for piece in bytes.split_inclusive(|&byte| byte == b'\n') {
            let (text, ends) = match piece.split_last() {
                Some((b'\n', text)) => (text, true),
                _ => (piece, false),
            };
            let room = LINE_BYTES.saturating_sub(self.current.len());
            if text.len() > room {
                self.cut = true;
            }
            self.current
                .extend_from_slice(&text[..text.len().min(room)]);
            if ends {
                self.end_line();
            }
        }
    }

    /// Ends the current line and keeps it, dropping the oldest beyond [`KEPT_LINES`].
    fn end_line(&mut self) {
        let mut line = String::from_utf8_lossy(&self.current).into_owned();
        if line.ends_with('\r') {
            line.pop();
        }
        if self.cut {
            line.push('…');
        }
        if self.lines.len() == KEPT_LINES {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
        self.current.clear();
        self.cut = false;
    }

    /// The kept lines, with an unfinished last line if any.
    pub fn lines(&self) -> Vec<String> {
        let mut copy = Tail {
            lines: self.lines.clone(),
            current: self.current.clone(),
            cut: self.cut,
            total: self.total,
        };
        if !copy.current.is_empty() || copy.cut {
            copy.end_line();
        }
        copy.lines.into()
    }

    /// Every byte read.
    pub fn total(&self) -> u64 {
        self.total
    }
}

/// Reads `stream` to its end (or its first error), pushing every byte into `tail`.
pub fn drain_into(mut stream: impl Read, tail: &Mutex<Tail>) {
    let mut buffer = vec![0; CHUNK];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return,
            Ok(read) => tail
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(&buffer[..read]),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_lines_across_chunk_boundaries() {
        let mut tail = Tail::default();
        tail.push(b"one\ntw");
        tail.push(b"o\r\nthree");
        assert_eq!(tail.lines(), ["one", "two", "three"]);
        for n in 0..100 {
            tail.push(format!("line {n}\n").as_bytes());
        }
        let lines = tail.lines();
        assert_eq!(lines.len(), KEPT_LINES);
        assert_eq!(lines.first().map(String::as_str), Some("line 80"));
        assert_eq!(lines.last().map(String::as_str), Some("line 99"));
    }

    #[test]
    fn cuts_long_lines_and_counts_every_byte() {
        let mut tail = Tail::default();
        for _ in 0..1000 {
            tail.push(&[b'x'; 1000]);
        }
        assert!(tail.current.len() <= LINE_BYTES);
        tail.push(b"\nshort\n");
        let lines = tail.lines();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0], format!("{}…", "x".repeat(LINE_BYTES)));
        assert_eq!(lines[1], "short");
        assert_eq!(tail.total(), 1_000_000 + 7);
    }

    #[test]
    fn a_cut_in_a_multibyte_character_stays_valid_text() {
        let mut tail = Tail::default();
        tail.push("é".repeat(LINE_BYTES).as_bytes());
        let lines = tail.lines();
        assert_eq!(lines.len(), 1);
        assert!(lines[0].ends_with('…'));
        assert!(lines[0].len() <= LINE_BYTES + '…'.len_utf8() + 3);
    }
}
