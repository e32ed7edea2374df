//! A progress bar on stderr for long runs: shown only on a terminal, and only once the
//! run has taken more than a moment.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a run goes before its progress bar appears.
const DELAY: Duration = Duration::from_millis(700);

/// Counts answered queries; draws once the run is slow enough to need it.
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    shown: AtomicBool,
    terminal: bool,
}

impl Progress {
    /// A bar for `total` queries, hidden for now.
    pub fn new(total: usize) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::hidden());
        if let Ok(style) =
            ProgressStyle::with_template("{elapsed:>4} [{bar:40}] {pos}/{len} queries {per_sec}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress {
            bar,
            started: Instant::now(),
            shown: AtomicBool::new(false),
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// `queries` more were answered.
    pub fn tick(&self, queries: usize) {
        self.bar.inc(queries as u64);
        if self.terminal
            && self.started.elapsed() > DELAY
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
