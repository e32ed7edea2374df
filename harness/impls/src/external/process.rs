//! One child process of an external adapter: started from an argument vector (never a
//! shell) in its own process group, stdin fed by a writer thread, stdout read by a reader
//! thread into lines with deadlines, stderr drained into a ring of its last lines. The
//! whole process group is killed on drop.
//!
//! Whatever the process does, it costs bounded memory: stdout travels through a bounded
//! channel (at most [`CHUNKS_IN_FLIGHT`] chunks of 64 KiB), a line is read up to
//! [`MAX_LINE`] bytes (by [`reptest_core::lines::LineReader`], the reader of every line
//! reptest does not control), and of stderr only the first bytes of each of the last lines
//! are kept ([`reptest_core::tail::Tail`], as of a crawler's output). Its process group is registered with [`reptest_core::shutdown`] while it lives, so a
//! signal that ends reptest ends the adapter and whatever it started.

use reptest_core::lines::{Line, LineReader};
use reptest_core::shutdown;
use reptest_core::tail::{drain_into, Tail};
use std::io::{self, Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// An answer line longer than this is not waited for.
pub(crate) const MAX_LINE: usize = 1 << 20;
/// Chunks of stdout read ahead of the consumer; the reader waits when they are full.
pub(crate) const CHUNKS_IN_FLIGHT: usize = 8;

/// Why [`Child::read_line`] returned no line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReadError {
    /// No line before the deadline.
    Timeout,
    /// stdout closed (the process exited or closed it).
    Eof,
    /// A line longer than the limit ([`MAX_LINE`] unless another was given).
    TooLong,
}

enum Chunk {
    Data(Vec<u8>),
    End,
}

/// A running child process.
pub(crate) struct Child {
    child: std::process::Child,
    stdin: Option<Sender<Vec<u8>>>,
    stdout: LineReader<Chunks>,
    stderr: Arc<Mutex<Tail>>,
    stderr_done: Receiver<()>,
    status: Option<ExitStatus>,
}

impl Child {
    /// Starts `argv` with piped stdout and stderr, and piped stdin when `with_stdin`
    /// (otherwise stdin is empty), with the variables `seeds` set
    /// ([`reptest_core::Environment::process_seeds`]).
    pub(crate) fn spawn(
        argv: &[String],
        with_stdin: bool,
        seeds: &[(&str, &str)],
    ) -> io::Result<Child> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(if with_stdin {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Fixed hash seeds: a library whose answer depends on dict or hash iteration order
        // (python-robotspy on overlapping groups) then answers the same in every run. The
        // caller leaves out a seed the user set, so it is kept.
        command.envs(seeds.iter().copied());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = {
            let mut registry = shutdown::lock();
            if shutdown::ending() {
                return Err(io::Error::other("reptest is ending"));
            }
            let child = command.spawn()?;
            if let Ok(pid) = i32::try_from(child.id()) {
                registry.track_group(pid);
            }
            child
        };

        let stdin = child.stdin.take().map(|mut pipe| {
            let (tx, rx) = mpsc::channel::<Vec<u8>>();
            thread::spawn(move || {
                for bytes in rx {
                    if pipe.write_all(&bytes).and_then(|()| pipe.flush()).is_err() {
                        break;
                    }
                }
            });
            tx
        });

        let (tx, stdout) = mpsc::sync_channel(CHUNKS_IN_FLIGHT);
        if let Some(pipe) = child.stdout.take() {
            thread::spawn(move || read_chunks(pipe, &tx));
        }

        let stderr = Arc::new(Mutex::new(Tail::default()));
        let (done_tx, stderr_done) = mpsc::channel();
        if let Some(pipe) = child.stderr.take() {
            let ring = Arc::clone(&stderr);
            thread::spawn(move || {
                drain_into(pipe, &ring);
                drop(done_tx);
            });
        }

        Ok(Child {
            child,
            stdin,
            stdout: LineReader::new(Chunks::new(stdout), MAX_LINE),
            stderr,
            stderr_done,
            status: None,
        })
    }

    /// Queues bytes for stdin. A process that no longer reads shows up as EOF or a
    /// timeout on stdout, so write errors are not reported here.
    pub(crate) fn send(&self, bytes: Vec<u8>) {
        if let Some(stdin) = &self.stdin {
            let _ = stdin.send(bytes);
        }
    }

    /// The next line of stdout (without its `\n`), waiting until `deadline` at most: once
    /// it has passed, even a line already read is not returned.
    pub(crate) fn read_line(&mut self, deadline: Instant) -> Result<&[u8], ReadError> {
        self.read_line_within(deadline, MAX_LINE)
    }

    /// [`Child::read_line`] with a line of up to `max` bytes (a batch answer's limit).
    pub(crate) fn read_line_within(
        &mut self,
        deadline: Instant,
        max: usize,
    ) -> Result<&[u8], ReadError> {
        if Instant::now() >= deadline {
            return Err(ReadError::Timeout);
        }
        self.stdout.source_mut().deadline = deadline;
        match self.stdout.next_line_within(max) {
            Ok(Some(Line::Complete(line))) => Ok(line),
            // A last line without its newline is not an answer: the process stopped
            // writing it.
            Ok(Some(Line::Unterminated(_)) | None) => Err(ReadError::Eof),
            Ok(Some(Line::TooLong)) => Err(ReadError::TooLong),
            Err(_) => Err(ReadError::Timeout),
        }
    }

    /// Everything left on stdout until it closes (cut after [`MAX_LINE`] bytes), or `None`
    /// if it is still open at `deadline`.
    pub(crate) fn read_to_end(&mut self, deadline: Instant) -> Option<Vec<u8>> {
        self.stdout.source_mut().deadline = deadline;
        self.stdout.read_rest(MAX_LINE).ok()
    }

    /// Waits for the process to exit until `deadline`; `None` if it is still running.
    pub(crate) fn wait_until(&mut self, deadline: Instant) -> Option<ExitStatus> {
        let mut pause = Duration::from_micros(50);
        loop {
            if let Some(status) = self.try_wait() {
                return Some(status);
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            thread::sleep(pause.min(deadline - now));
            pause = (pause * 2).min(Duration::from_millis(5));
        }
    }

    fn try_wait(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            let mut registry = shutdown::lock();
            self.status = self.child.try_wait().ok().flatten();
            if self.status.is_some() {
                self.forget(&mut registry);
            }
        }
        self.status
    }

    /// Kills the process group (unless the process was reaped already) and reaps it.
    pub(crate) fn kill(&mut self) {
        self.stdin = None;
        if self.status.is_some() {
            // Reaped already: its pid may belong to someone else now.
            return;
        }
        let mut registry = shutdown::lock();
        // Not reaped (perhaps a zombie), so the group id is still ours to signal.
        kill_group(&self.child);
        let _ = self.child.kill();
        self.status = self.child.wait().ok();
        self.forget(&mut registry);
    }

    /// Drops the reaped process from the shutdown registry.
    fn forget(&self, registry: &mut shutdown::Registry) {
        if let Ok(pid) = i32::try_from(self.child.id()) {
            registry.untrack_group(pid);
        }
    }

    /// Why the process stopped answering, after stdout closed: its exit status (it is
    /// given a moment to exit, then killed) and the last lines of its stderr.
    pub(crate) fn exit_report(&mut self) -> String {
        let exited = self.wait_until(Instant::now() + Duration::from_millis(200));
        self.kill();
        let status = match exited {
            Some(status) => format!("the process exited ({status})"),
            None => "the process closed stdout (killed)".to_string(),
        };
        match self.stderr_tail() {
            tail if tail.is_empty() => status,
            tail => format!("{status}; stderr: {tail}"),
        }
    }

    /// `message`, followed by the last lines of stderr when there are any.
    pub(crate) fn with_stderr(&self, message: String) -> String {
        match self.stderr_tail() {
            tail if tail.is_empty() => message,
            tail => format!("{message}; stderr: {tail}"),
        }
    }

    /// The last lines of stderr, `|`-separated (waiting briefly for a process that has
    /// ended to have its stderr read to the end).
    pub(crate) fn stderr_tail(&self) -> String {
        if self.status.is_some() {
            let _ = self.stderr_done.recv_timeout(Duration::from_millis(200));
        }
        let Ok(ring) = self.stderr.lock() else {
            return String::new();
        };
        let all = ring.lines();
        let lines: Vec<&str> = all
            .iter()
            .rev()
            .map(|l| l.trim_end())
            .filter(|l| !l.is_empty())
            .take(5)
            .collect();
        lines.into_iter().rev().collect::<Vec<_>>().join(" | ")
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The chunks of stdout as a [`Read`] with a deadline: past it, a read that would wait
/// fails with [`io::ErrorKind::TimedOut`]; after [`Chunk::End`] it reads nothing.
pub(crate) struct Chunks {
    chunks: Receiver<Chunk>,
    current: Vec<u8>,
    /// Bytes of `current` already read.
    used: usize,
    deadline: Instant,
}

impl Chunks {
    fn new(chunks: Receiver<Chunk>) -> Self {
        Chunks {
            chunks,
            current: Vec::new(),
            used: 0,
            deadline: Instant::now(),
        }
    }
}

impl Read for Chunks {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.used == self.current.len() {
            if Instant::now() >= self.deadline {
                return Err(io::ErrorKind::TimedOut.into());
            }
            let wait = self.deadline.saturating_duration_since(Instant::now());
            match self.chunks.recv_timeout(wait) {
                Ok(Chunk::Data(data)) => (self.current, self.used) = (data, 0),
                Ok(Chunk::End) | Err(RecvTimeoutError::Disconnected) => return Ok(0),
                Err(RecvTimeoutError::Timeout) => return Err(io::ErrorKind::TimedOut.into()),
            }
        }
        let n = buf.len().min(self.current.len() - self.used);
        buf[..n].copy_from_slice(&self.current[self.used..self.used + n]);
        self.used += n;
        Ok(n)
    }
}

/// Sends stdout to `tx` in chunks, then [`Chunk::End`]; waits while `tx` is full and
/// stops when the receiver is gone.
fn read_chunks(mut pipe: impl Read, tx: &SyncSender<Chunk>) {
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                if tx.send(Chunk::Data(chunk[..n].to_vec())).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let _ = tx.send(Chunk::End);
}

/// Kills the child's process group (it leads one: `process_group(0)`), so helpers it
/// started die with it and release the pipes.
fn kill_group(child: &std::process::Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals that process group; it touches no
        // memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = child;
}

#[cfg(test)]
mod tests {
    use super::*;
    use reptest_core::tail::LINE_BYTES;

    #[test]
    fn stderr_keeps_the_start_of_each_of_the_last_lines_of_any_length() {
        let mut input = b"first\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 10 << 20));
        input.extend_from_slice(b"\r\nlast line without newline");
        let ring = Mutex::new(Tail::default());
        drain_into(&input[..], &ring);
        let ring = ring.into_inner().unwrap().lines();
        assert_eq!(ring.len(), 3);
        assert_eq!(ring[0], "first");
        assert!(
            ring[1].starts_with("xxx") && ring[1].ends_with('…'),
            "{}",
            ring[1]
        );
        assert!(ring[1].chars().count() <= LINE_BYTES + 1);
        assert_eq!(ring[2], "last line without newline");
    }

    #[test]
    fn a_line_already_read_is_not_returned_after_the_deadline() {
        let argv = ["sh", "-c", "echo one; echo two; sleep 5"].map(String::from);
        let mut child = Child::spawn(&argv, false, &[]).unwrap();
        let soon = Instant::now() + Duration::from_secs(5);
        assert_eq!(child.read_line(soon), Ok(&b"one"[..]));
        // "two" may be buffered already; a deadline that has passed still wins.
        assert_eq!(child.read_line(Instant::now()), Err(ReadError::Timeout));
        assert_eq!(child.read_line(soon), Ok(&b"two"[..]));
    }
}
