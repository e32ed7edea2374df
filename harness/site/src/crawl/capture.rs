//! Bounded capture of a crawler's stdout and stderr: the last lines, each cut short, read
//! on a thread that discards everything else, so a crawler that floods its output never
//! grows reptest's memory (nor blocks on a full pipe).

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How many lines are kept (the last ones).
pub(crate) const KEPT_LINES: usize = 20;
/// How many bytes of one line are kept; the rest of the line is dropped and `…` marks it.
pub(crate) const LINE_BYTES: usize = 300;
/// The read buffer.
const CHUNK: usize = 8 * 1024;

/// The last lines of one stream, bounded: at most [`KEPT_LINES`] lines of at most
/// [`LINE_BYTES`] bytes each (plus a marker), and the total byte count.
#[derive(Debug, Default)]
pub(crate) struct Tail {
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
    pub(crate) fn push(&mut self, bytes: &[u8]) {
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
    pub(crate) fn lines(&self) -> Vec<String> {
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
    pub(crate) fn total(&self) -> u64 {
        self.total
    }
}

/// A stream being captured on its own thread.
#[derive(Debug)]
pub(crate) struct Capture {
    tail: Arc<Mutex<Tail>>,
    thread: Option<JoinHandle<()>>,
}

impl Capture {
    /// Reads `stream` to its end on a thread named `name`, keeping a [`Tail`].
    pub(crate) fn start(name: &str, mut stream: impl Read + Send + 'static) -> io::Result<Self> {
        let tail = Arc::new(Mutex::new(Tail::default()));
        let thread = {
            let tail = Arc::clone(&tail);
            std::thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || {
                    let mut buffer = vec![0; CHUNK];
                    loop {
                        match stream.read(&mut buffer) {
                            Ok(0) => break,
                            Ok(read) => lock(&tail).push(&buffer[..read]),
                            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                            Err(_) => break,
                        }
                    }
                })?
        };
        Ok(Self {
            tail,
            thread: Some(thread),
        })
    }

    /// Waits until `deadline` for the stream to end (every writer gone), then returns what
    /// was kept: the lines and the total byte count. A stream still open at the deadline
    /// (a process that escaped the group still holds it) is left to its thread, which
    /// keeps discarding until it ends.
    pub(crate) fn finish(mut self, deadline: Instant) -> (Vec<String>, u64) {
        if let Some(thread) = self.thread.take() {
            while !thread.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            if thread.is_finished() {
                // The reader never panics by design; its tail is read below either way.
                let _ = thread.join();
            }
        }
        let tail = lock(&self.tail);
        (tail.lines(), tail.total())
    }
}

fn lock(tail: &Mutex<Tail>) -> std::sync::MutexGuard<'_, Tail> {
    tail.lock().unwrap_or_else(PoisonError::into_inner)
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
