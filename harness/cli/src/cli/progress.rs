//! Progress of a corpus run on stderr: which implementation is running (n of N), its
//! queries answered, queries/s and the time left for it. Drawn only when stderr is a
//! terminal and `--quiet` was not given, and only once the run has taken more than a
//! moment (a quick run leaves the terminal as it was).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use reptest::runner::RunObserver;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a run goes before its progress appears.
const DELAY: Duration = Duration::from_millis(700);

/// How often a shown bar is redrawn while nothing is answered (a slow adapter starting):
/// the elapsed time keeps moving.
const STEADY_TICK: Duration = Duration::from_millis(250);

/// The bar's line: `[2/24] python-protego [=====>    ] 412/931 queries 1931/s ETA 0s 0s`.
const TEMPLATE: &str =
    "{prefix} {msg} [{bar:30}] {pos}/{len} queries {rate} ETA {eta} ({elapsed} so far)";

/// Whether progress is drawn: on a terminal only, and never with `--quiet` (a pipe, a
/// file or a CI log gets nothing).
pub fn wanted(stderr_is_terminal: bool, quiet: bool) -> bool {
    stderr_is_terminal && !quiet
}

/// A bar style from `template`, with `{rate}` (items per second, whole) besides
/// indicatif's keys; None if the template is malformed (the bar keeps its default).
pub fn style(template: &str) -> Option<ProgressStyle> {
    let style = ProgressStyle::with_template(template).ok()?;
    Some(
        style
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}/s", state.per_sec());
                },
            )
            .progress_chars("=> "),
    )
}

/// Shows a run's progress, implementation by implementation; hidden until [`DELAY`] has
/// passed, and for good when progress is not [`wanted`].
pub struct RunProgress {
    bar: ProgressBar,
    started: Instant,
    delay: Duration,
    /// Where the bar goes once shown; taken when it is (None: shown, or never will be).
    target: Mutex<Option<ProgressDrawTarget>>,
}

impl RunProgress {
    /// Progress on stderr when it is a terminal and not `quiet`, else none.
    pub fn new(quiet: bool) -> RunProgress {
        let target =
            wanted(std::io::stderr().is_terminal(), quiet).then(ProgressDrawTarget::stderr);
        RunProgress::with_target(target, DELAY)
    }

    /// Progress drawn on `target` (none: never drawn) once `delay` has passed.
    pub fn with_target(target: Option<ProgressDrawTarget>, delay: Duration) -> RunProgress {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        if let Some(style) = style(TEMPLATE) {
            bar.set_style(style);
        }
        RunProgress {
            bar,
            started: Instant::now(),
            delay,
            target: Mutex::new(target),
        }
    }

    /// Draws the bar from now on if the run has gone on long enough.
    fn show_when_due(&self) {
        if self.started.elapsed() < self.delay {
            return;
        }
        let Ok(mut target) = self.target.lock() else {
            return;
        };
        if let Some(target) = target.take() {
            self.bar.set_draw_target(target);
            // Drawn now; from then on by the steady tick alone (indicatif draws nothing
            // on an update while one is installed).
            self.bar.tick();
            self.bar.enable_steady_tick(STEADY_TICK);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl RunObserver for RunProgress {
    fn started(&self, index: usize, count: usize, name: &str, queries: usize) {
        self.bar.reset();
        self.bar.set_length(queries as u64);
        self.bar.set_prefix(format!("[{}/{count}]", index + 1));
        self.bar.set_message(name.to_string());
        self.show_when_due();
    }

    fn answered(&self, queries: usize) {
        self.bar.inc(queries as u64);
        self.show_when_due();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::TermLike;
    use std::sync::Arc;

    #[test]
    fn drawn_on_a_terminal_unless_quiet() {
        assert!(wanted(true, false));
        assert!(!wanted(true, true));
        assert!(!wanted(false, false));
        assert!(!wanted(false, true));
    }

    /// A terminal that keeps what is written to it.
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<Mutex<String>>);

    impl Screen {
        fn text(&self) -> String {
            self.0.lock().unwrap().clone()
        }

        fn write(&self, s: &str) {
            self.0.lock().unwrap().push_str(s);
        }
    }

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            200
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write(s);
            self.write("\n");
            Ok(())
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.write(s);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn drawn_on(screen: &Screen, delay: Duration) -> RunProgress {
        let target = ProgressDrawTarget::term_like_with_hz(Box::new(screen.clone()), 200);
        RunProgress::with_target(Some(target), delay)
    }

    #[test]
    fn names_the_implementation_its_place_and_its_queries() {
        let screen = Screen::default();
        let progress = drawn_on(&screen, Duration::ZERO);
        progress.started(1, 24, "python-protego", 931);
        progress.answered(412);
        progress.finish();
        let text = screen.text();
        assert!(text.contains("[2/24] python-protego ["), "{text}");
        assert!(text.contains("/931 queries"), "{text}");
        assert!(text.contains("/s ETA "), "{text}");
    }

    #[test]
    fn a_quick_run_draws_nothing() {
        let screen = Screen::default();
        let progress = drawn_on(&screen, Duration::from_secs(3600));
        progress.started(0, 1, "reference", 931);
        progress.answered(931);
        progress.finish();
        assert_eq!(screen.text(), "");
    }

    #[test]
    fn without_a_target_nothing_is_drawn_and_nothing_fails() {
        let progress = RunProgress::with_target(None, Duration::ZERO);
        progress.started(0, 1, "reference", 931);
        progress.answered(931);
        progress.finish();
        assert!(progress.bar.is_hidden());
    }
}
