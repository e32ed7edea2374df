//! Bounded capture of a crawler's stdout and stderr: the last lines, each cut short, read
//! on a thread that discards everything else, so a crawler that floods its output never
//! grows reptest's memory (nor blocks on a full pipe).

use reptest_core::tail::{drain_into, Tail};
use std::io::{self, Read};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A stream being captured on its own thread.
#[derive(Debug)]
pub(crate) struct Capture {
    tail: Arc<Mutex<Tail>>,
    thread: Option<JoinHandle<()>>,
}

impl Capture {
    /// Reads `stream` to its end on a thread named `name`, keeping a [`Tail`].
    pub(crate) fn start(name: &str, stream: impl Read + Send + 'static) -> io::Result<Self> {
        let tail = Arc::new(Mutex::new(Tail::default()));
        let thread = {
            let tail = Arc::clone(&tail);
            std::thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || drain_into(stream, &tail))?
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
