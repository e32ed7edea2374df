//! What `reptest survey` says on stderr while it runs ([`Watch`]): on a terminal (and
//! not `--quiet`), a progress bar whose message is the survey's [status
//! line](super::status); elsewhere (a pipe, a file, a CI log; not `--quiet`), that line
//! every [`LOG_EVERY`], so a long run's log says where it is in bounded output (nothing
//! at all for a run shorter than that). Warnings for skipped entries: the first few,
//! then a count.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish};
use reptest_survey::engine::Observer;
use reptest_survey::Tally;

use super::status::{ImplStatus, Snapshot, LOG_EVERY};
use crate::cli::progress;

/// Skipped entries named on stderr; the rest are counted.
const WARNINGS_SHOWN: u64 = 10;

/// How often the bar's status is refreshed.
const BAR_EVERY: Duration = Duration::from_millis(250);

/// What a survey is expected to read, known before it starts.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Expected {
    /// The files of a directory (or `--limit`).
    pub(super) files: Option<u64>,
    /// The size of a tar or WARC file.
    pub(super) size: Option<u64>,
    /// Whether the run is sharded (its own files are then said apart).
    pub(super) sharded: bool,
}

impl Expected {
    /// What a survey of `input` will read: the entries of a directory (an archive is not
    /// read twice), or the size of a file; `--limit` caps the files.
    pub(super) fn of(input: &Path, limit: Option<u64>, sharded: bool) -> Expected {
        let listed = input.is_dir().then(|| listed_files(input)).flatten();
        let files = match (listed, limit) {
            (Some(n), Some(l)) => Some(n.min(l)),
            (n, l) => n.or(l),
        };
        let size = (!input.is_dir())
            .then(|| std::fs::metadata(input).ok().map(|m| m.len()))
            .flatten()
            .filter(|&n| n > 0);
        Expected {
            files,
            size,
            sharded,
        }
    }
}

/// The regular files of directory `dir`, hidden ones left out, as the survey reads it.
fn listed_files(dir: &Path) -> Option<u64> {
    let entries = std::fs::read_dir(dir).ok()?;
    let files = entries
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter(|e| e.path().is_file())
        .count();
    Some(files as u64)
}

/// The counts a survey's [`Observer`] calls keep, read by the status line.
#[derive(Default)]
struct Counts {
    /// Entries read from the input, in the shard or not.
    read: AtomicU64,
    /// Files of the shard tallied.
    tallied: AtomicU64,
    /// Entries skipped as unreadable.
    skipped: AtomicU64,
    /// Octets read of a tar or WARC file.
    bytes: Arc<AtomicU64>,
    /// Since when files are read, and what is expected of them.
    started: OnceLock<(Instant, Expected)>,
    /// Each implementation: its name, missing answers, whether its breaker is open.
    implementations: OnceLock<Vec<(String, AtomicU64, AtomicBool)>>,
}

impl Counts {
    /// The survey's status now.
    fn snapshot(&self) -> Snapshot {
        let (started, expected) = self
            .started
            .get()
            .copied()
            .unwrap_or((Instant::now(), Expected::default()));
        let implementations = self.implementations.get().map_or(Vec::new(), |all| {
            all.iter()
                .map(|(name, missing, open)| ImplStatus {
                    name: name.clone(),
                    missing: missing.load(Ordering::Relaxed),
                    open: open.load(Ordering::Relaxed),
                })
                .collect()
        });
        Snapshot {
            elapsed: started.elapsed(),
            read: self.read.load(Ordering::Relaxed),
            expected: expected.files,
            bytes: expected
                .size
                .map(|size| (self.bytes.load(Ordering::Relaxed), size)),
            in_shard: expected
                .sharded
                .then(|| self.tallied.load(Ordering::Relaxed)),
            implementations,
        }
    }
}

/// Progress and warnings on stderr while a survey runs (see the module documentation).
pub(super) struct Watch {
    bar: Option<ProgressBar>,
    /// Status lines every [`LOG_EVERY`] (stderr is not a terminal, not `--quiet`).
    log: bool,
    counts: Arc<Counts>,
    ticker: Mutex<Option<Ticker>>,
}

impl Watch {
    /// Progress on stderr unless `quiet`: a bar on a terminal (a spinner while the
    /// implementations start, then the files: [`Watch::files`]), status lines elsewhere.
    pub(super) fn new(quiet: bool) -> Watch {
        let terminal = std::io::stderr().is_terminal();
        let shown = progress::wanted(terminal, quiet);
        let bar = shown.then(|| {
            // Cleared when dropped, so an error exit leaves no bar above its message.
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
                .with_finish(ProgressFinish::AndClear);
            if let Some(style) = progress::style("{elapsed:>4} {spinner} {msg}") {
                bar.set_style(style);
            }
            bar.enable_steady_tick(BAR_EVERY);
            bar
        });
        Watch {
            bar,
            log: !terminal && !quiet,
            counts: Arc::default(),
            ticker: Mutex::new(None),
        }
    }

    /// Says what the survey is doing before it reads files (loading, and the attribution
    /// probe, where an external adapter's process start is most of the time).
    pub(super) fn say(&self, doing: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(doing.to_string());
        }
    }

    /// The counter of octets read from the input file ([`reptest_survey::open_counted`]).
    pub(super) fn bytes(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.counts.bytes)
    }

    /// Files read from the input, in the shard or not.
    pub(super) fn files_read(&self) -> u64 {
        self.counts.read.load(Ordering::Relaxed)
    }

    /// From now on the files are read: `expected` of them, by the implementations
    /// `names` (in survey order). Starts the bar's refresh or the status lines.
    pub(super) fn files(&self, expected: Expected, names: &[&str]) {
        let all = names
            .iter()
            .map(|n| (n.to_string(), AtomicU64::new(0), AtomicBool::new(false)));
        let _ = self.counts.implementations.set(all.collect());
        let _ = self.counts.started.set((Instant::now(), expected));
        let counts = Arc::clone(&self.counts);
        let ticker = match (&self.bar, self.log) {
            (Some(bar), _) => {
                self.bar_for_files(bar, &expected);
                refresh(bar, &counts.snapshot());
                let bar = bar.clone();
                Ticker::start(BAR_EVERY, move || refresh(&bar, &counts.snapshot()))
            }
            (None, true) => Ticker::start(LOG_EVERY, move || {
                eprintln!("reptest survey: {}", counts.snapshot().line())
            }),
            (None, false) => return,
        };
        if let Ok(mut slot) = self.ticker.lock() {
            *slot = Some(ticker);
        }
    }

    /// The bar's style for the files: a bar when the input's extent is known, else a
    /// spinner; the status line is its message.
    fn bar_for_files(&self, bar: &ProgressBar, expected: &Expected) {
        let known = expected.files.is_some() || expected.size.is_some();
        let template = if known {
            "{elapsed:>4} [{bar:20}] {wide_msg}"
        } else {
            "{elapsed:>4} {spinner} {wide_msg}"
        };
        if let Some(style) = progress::style(template) {
            bar.set_style(style);
        }
        bar.reset();
        bar.set_length(if known { PERMILLE } else { 0 });
        if !known {
            bar.unset_length();
        }
    }

    /// Stops the progress and says how many entries were skipped beyond those named.
    pub(super) fn finish(&self) {
        if let Some(ticker) = self.ticker.lock().ok().and_then(|mut t| t.take()) {
            ticker.stop();
        }
        if let Some(bar) = &self.bar {
            // The last status, so a run quicker than a refresh is seen whole before the
            // bar goes.
            refresh(bar, &self.counts.snapshot());
            bar.tick();
            bar.finish_and_clear();
        }
        let skipped = self.counts.skipped.load(Ordering::Relaxed);
        if skipped > WARNINGS_SHOWN {
            eprintln!(
                "reptest survey: {} more entries skipped ({skipped} in all; counted in files.skipped)",
                skipped - WARNINGS_SHOWN
            );
        }
    }
}

/// The bar's length: its position is the share of the input read, in thousandths.
const PERMILLE: u64 = 1000;

/// Shows `snapshot` on `bar`.
fn refresh(bar: &ProgressBar, snapshot: &Snapshot) {
    if let Some(fraction) = snapshot.fraction() {
        bar.set_position((fraction * PERMILLE as f64) as u64);
    }
    bar.set_message(snapshot.line());
}

impl Observer for Watch {
    fn tallied(&self, files: u64) {
        self.counts.tallied.fetch_add(files, Ordering::Relaxed);
    }

    fn read(&self) {
        self.counts.read.fetch_add(1, Ordering::Relaxed);
    }

    fn counted(&self, tally: &Tally) {
        let Some(all) = self.counts.implementations.get() else {
            return;
        };
        for ((_, missing, open), t) in all.iter().zip(&tally.implementations) {
            missing.fetch_add(t.missing.total(), Ordering::Relaxed);
            if t.breaker.opened > 0 {
                open.store(true, Ordering::Relaxed);
            }
        }
    }

    fn skipped(&self, error: &reptest_survey::Error) {
        let n = self.counts.skipped.fetch_add(1, Ordering::Relaxed);
        if n < WARNINGS_SHOWN {
            let line = format!("reptest survey: warning: {error}");
            match &self.bar {
                Some(bar) => bar.println(line),
                None => eprintln!("{line}"),
            }
        }
    }
}

/// A thread that calls a function every interval (the first call one interval after the
/// start) until it is stopped: at most one call per interval.
struct Ticker {
    stop: Sender<()>,
    thread: JoinHandle<()>,
}

impl Ticker {
    fn start(every: Duration, tick: impl Fn() + Send + 'static) -> Ticker {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                tick();
            }
        });
        Ticker { stop, thread }
    }

    /// Stops the calls and waits for the thread (a call under way ends first).
    fn stop(self) {
        drop(self.stop);
        let _ = self.thread.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ticker_calls_at_most_once_per_interval_until_stopped() {
        let calls = Arc::new(AtomicU64::new(0));
        let counted = Arc::clone(&calls);
        let started = Instant::now();
        let ticker = Ticker::start(Duration::from_millis(50), move || {
            counted.fetch_add(1, Ordering::Relaxed);
        });
        std::thread::sleep(Duration::from_millis(600));
        ticker.stop();
        let elapsed = started.elapsed();
        let n = calls.load(Ordering::Relaxed);
        assert!(n >= 1, "no call in {elapsed:?}");
        assert!(
            n as u128 <= elapsed.as_millis() / 50,
            "{n} calls in {elapsed:?}"
        );
        std::thread::sleep(Duration::from_millis(120));
        assert_eq!(calls.load(Ordering::Relaxed), n, "called after stop");
    }

    #[test]
    fn the_counts_of_each_file_reach_the_status_line() {
        let watch = Watch {
            bar: None,
            log: false,
            counts: Arc::default(),
            ticker: Mutex::new(None),
        };
        watch.files(
            Expected {
                files: Some(4),
                size: None,
                sharded: true,
            },
            &["reference", "slow"],
        );
        let mut tally = Tally::new(2);
        tally.implementations[1].missing.timeout = 3;
        tally.implementations[1].breaker.opened = 1;
        for _ in 0..2 {
            watch.read();
            watch.counted(&tally);
            watch.tallied(1);
        }
        watch.read();
        let line = watch.counts.snapshot().line();
        assert!(
            line.starts_with("3/4 files (75.0 %) (2 in this shard), "),
            "{line}"
        );
        assert!(line.ends_with("; breaker open: slow"), "{line}");
        watch.finish();
    }

    #[test]
    fn a_directory_is_expected_to_hold_its_listed_files() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.example", "b.example", ".hidden"] {
            std::fs::write(dir.path().join(name), "User-agent: *\n").unwrap();
        }
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        assert_eq!(Expected::of(dir.path(), None, false).files, Some(2));
        assert_eq!(Expected::of(dir.path(), Some(1), false).files, Some(1));
        let warc = dir.path().join("a.warc");
        std::fs::write(&warc, [0u8; 100]).unwrap();
        let stream = Expected::of(&warc, None, false);
        assert_eq!((stream.files, stream.size), (None, Some(100)));
    }
}
