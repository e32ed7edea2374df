//! RFC 9309 conformance in your own `cargo test`.
//!
//! Give [`Suite::run`] a closure that asks your parser one question, `(robots, agent,
//! url) -> allowed`, and a baseline file: every query of reptest's corpus becomes one
//! test of your test binary, judged as `reptest gate` judges it (`docs/gate.md`):
//!
//! - a query the baseline lists as passed and that fails now is a **regression**: the
//!   test fails, with the body in visible notation, why, and the requirement's text;
//! - a query the baseline lists as a known failure and that passes now is **stale**:
//!   the test fails until you delete the entry (the ratchet);
//! - a known failure still failing, a query your parser cannot express (a fetch
//!   outcome), and a query where the RFC permits either verdict (not gated: any answer
//!   conforms), is an ignored test; a failing query the baseline does not know is
//!   ignored too, unless [`Suite::strict`].
//!
//! Record the baseline (and commit it) with `REPTEST_WRITE_BASELINE=1 cargo test`; the
//! corpus is the one built into `reptest-corpus` (or [`Suite::corpus`]).
//!
//! [`Suite::run`] is the `main` of your test binary: it reads the binary's command line
//! (`cargo test`'s options) and `REPTEST_WRITE_BASELINE`, the one place outside the
//! `reptest` command line that reads the environment (`.ci/library-rules.py` allows it).
//! Everything else here takes its settings as arguments ([`Suite::write_baseline`]).
//!
//! In `tests/conformance.rs`, with `[[test]] name = "conformance", harness = false` in
//! your Cargo.toml:
//!
//! ```no_run
//! fn main() -> std::process::ExitCode {
//!     reptest_cargo_test::Suite::new("my-parser", "tests/reptest-baseline.toml").run(
//!         |robots: &[u8], agent: &str, url: &str| {
//!             // Ask your parser; `url` is absolute (https://...).
//!             let _ = (robots, agent, url);
//!             true
//!         },
//!     )
//! }
//! ```
#![deny(missing_docs)]

use libtest_mimic::{Arguments, Failed, Trial};
use reptest_core::runner;
use reptest_core::{
    Capabilities, CaseInput, ImplInfo, ImplKind, Implementation, Outcome, QueryInput,
};
use reptest_corpus::{Corpus, Profile};
use reptest_report::gate::{Baseline, BaselineError, GateResult, Status};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;

/// The environment variable that makes a run record the baseline instead of judging.
pub const WRITE_BASELINE: &str = "REPTEST_WRITE_BASELINE";

/// Why the suite cannot judge: the corpus is invalid, the baseline is missing, unreadable
/// or lists positional ids, or the baseline could not be written.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
}

#[derive(Debug)]
enum ErrorKind {
    /// The corpus does not load.
    Corpus(reptest_corpus::Error),
    /// No baseline file at this path.
    NoBaseline(PathBuf),
    /// The baseline file cannot be read.
    Baseline(BaselineError),
    /// The baseline lists positional ids of corpus 1.x or 2.x (the file, the first id).
    Positional(PathBuf, String),
    /// The baseline could not be written.
    Write(reptest_core::atomic::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Corpus(e) => write!(f, "the corpus is invalid:\n{e}"),
            ErrorKind::NoBaseline(path) => write!(
                f,
                "no baseline at {}: record one (and commit it) with {WRITE_BASELINE}=1 cargo test",
                path.display()
            ),
            ErrorKind::Baseline(e) => e.fmt(f),
            ErrorKind::Positional(path, first) => write!(
                f,
                "{} lists positional query ids of corpus 1.x or 2.x (e.g. `{first}`); ids are case/name since corpus 3.0.0: rewrite it with `reptest gate --migrate-baseline {}`, or re-record it with {WRITE_BASELINE}=1 cargo test",
                path.display(),
                path.display()
            ),
            ErrorKind::Write(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Corpus(e) => Some(e),
            ErrorKind::Baseline(e) => Some(e),
            ErrorKind::Write(e) => Some(e),
            ErrorKind::NoBaseline(_) | ErrorKind::Positional(..) => None,
        }
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Error {
        Error { kind }
    }
}

impl From<reptest_core::atomic::Error> for Error {
    fn from(e: reptest_core::atomic::Error) -> Error {
        ErrorKind::Write(e).into()
    }
}

/// A conformance suite for one parser, judged against one baseline file.
#[derive(Debug, Clone)]
pub struct Suite {
    name: String,
    baseline: PathBuf,
    profile: Profile,
    corpus: Option<PathBuf>,
    strict: bool,
    write_baseline: bool,
}

impl Suite {
    /// The suite of the parser `name`, judged against the baseline at `baseline`
    /// (relative to the crate's folder when `cargo test` runs it).
    pub fn new(name: &str, baseline: impl Into<PathBuf>) -> Suite {
        Suite {
            name: name.to_string(),
            baseline: baseline.into(),
            profile: Profile::Rfc9309,
            corpus: None,
            strict: false,
            write_baseline: false,
        }
    }

    /// Judge against another profile's expectations (default `rfc9309`).
    pub fn profile(mut self, profile: Profile) -> Suite {
        self.profile = profile;
        self
    }

    /// Read the corpus from `dir` instead of the built-in one.
    pub fn corpus(mut self, dir: impl Into<PathBuf>) -> Suite {
        self.corpus = Some(dir.into());
        self
    }

    /// New failures (queries the baseline does not list) fail too.
    pub fn strict(mut self) -> Suite {
        self.strict = true;
        self
    }

    /// Whether [`Suite::trials`] records the baseline before judging against it (what
    /// `REPTEST_WRITE_BASELINE=1` asks of [`Suite::run`]); default `false`.
    pub fn write_baseline(mut self, write: bool) -> Suite {
        self.write_baseline = write;
        self
    }

    /// Runs every corpus query through `check` and reports one test per query, with the
    /// command-line options `cargo test` passes (filters, `--ignored`, `--list`, ...);
    /// with `REPTEST_WRITE_BASELINE` set, records the baseline first.
    ///
    /// The `main` of a test binary: the one library function that reads the environment
    /// (`.ci/library-rules.py`), as it reads the binary's command line.
    pub fn run<F>(self, check: F) -> ExitCode
    where
        F: Fn(&[u8], &str, &str) -> bool + Send + Sync + 'static,
    {
        let arguments = Arguments::from_args();
        // library-rules: allow env (a test binary's main: see the crate documentation)
        let write = std::env::var_os(WRITE_BASELINE).is_some();
        match self.write_baseline(write).trials(check) {
            Ok(trials) => libtest_mimic::run(&arguments, trials).exit_code(),
            Err(message) => {
                eprintln!("reptest-cargo-test: {message}");
                ExitCode::from(2)
            }
        }
    }

    /// Records the baseline of `check` (what `REPTEST_WRITE_BASELINE=1` does in
    /// [`Suite::run`]) and returns it.
    pub fn record<F>(&self, check: F) -> Result<Baseline, Error>
    where
        F: Fn(&[u8], &str, &str) -> bool + Send + Sync + 'static,
    {
        let (corpus, run) = self.run_corpus(check)?;
        let baseline = Baseline::from_run(&corpus, &self.name, &run, self.profile);
        reptest_core::atomic::write(&self.baseline, baseline.to_toml().as_bytes())?;
        Ok(baseline)
    }

    fn run_corpus<F>(&self, check: F) -> Result<(Corpus, runner::Run), Error>
    where
        F: Fn(&[u8], &str, &str) -> bool + Send + Sync + 'static,
    {
        let corpus = match &self.corpus {
            Some(dir) => Corpus::load(dir),
            None => Corpus::embedded(),
        }
        .map_err(ErrorKind::Corpus)?;
        let parser = Closure::new(&self.name, check);
        let implementations: Vec<Box<dyn Implementation>> = vec![Box::new(parser)];
        let run = runner::run(&corpus, &implementations);
        Ok((corpus, run))
    }

    /// The tests, one per corpus query, judged against the baseline (or the error that
    /// prevents them): for a runner of your own, or to look at them. With
    /// [`Suite::write_baseline`], the baseline is recorded first.
    pub fn trials<F>(&self, check: F) -> Result<Vec<Trial>, Error>
    where
        F: Fn(&[u8], &str, &str) -> bool + Send + Sync + 'static,
    {
        let (corpus, run) = self.run_corpus(check)?;
        if self.write_baseline {
            let baseline = Baseline::from_run(&corpus, &self.name, &run, self.profile);
            reptest_core::atomic::write(&self.baseline, baseline.to_toml().as_bytes())?;
            eprintln!(
                "reptest-cargo-test: wrote {}: {} passed, {} known failures, {} unsupported; commit it",
                self.baseline.display(),
                baseline.passed.len(),
                baseline.known_failures.len(),
                baseline.unsupported.len()
            );
        }
        let baseline = self.load_baseline()?;
        let result = GateResult::compare(&baseline, &corpus, &run, self.strict);
        Ok(result
            .entries
            .iter()
            .map(|entry| self.verdict_of(entry))
            .map(|verdict| {
                let outcome = verdict
                    .failure
                    .clone()
                    .map_or(Ok(()), |m| Err(Failed::from(m)));
                Trial::test(verdict.id, move || outcome.clone())
                    .with_kind(format!("{:?}", verdict.status).to_lowercase())
                    .with_ignored_flag(verdict.ignored)
            })
            .collect())
    }

    /// The baseline file, refused with the fix when it is missing or still lists the
    /// positional ids of corpus 1.x or 2.x (`case/N`).
    fn load_baseline(&self) -> Result<Baseline, Error> {
        let baseline = match Baseline::load(&self.baseline) {
            Ok(baseline) => baseline,
            Err(BaselineError::Missing(path)) => return Err(ErrorKind::NoBaseline(path).into()),
            Err(e) => return Err(ErrorKind::Baseline(e).into()),
        };
        if let Some(first) = baseline.positional_ids().first() {
            let first = first.to_string();
            return Err(ErrorKind::Positional(self.baseline.clone(), first).into());
        }
        Ok(baseline)
    }

    /// How one query's test ends: its failure message, or whether it is ignored.
    fn verdict_of(&self, entry: &reptest_report::gate::Entry) -> QueryTest {
        let q = &entry.query;
        let explain = format!(
            "{} (agent `{}`, URL `{}`): expected {}, got {}\n{}",
            q.id,
            q.agent,
            q.url,
            q.expected,
            q.detail,
            reptest_report::gate::explain(entry).join("\n")
        );
        let failure = match entry.status {
            Status::Regression => Some(format!(
                "regression: passed in the baseline, fails now: {explain}"
            )),
            Status::Stale => Some(format!(
                "stale known failure: passes now; delete its [[known_failure]] entry from {}: {explain}",
                self.baseline.display()
            )),
            Status::NewFailure if self.strict => {
                Some(format!("new failure (not in the baseline): {explain}"))
            }
            _ => None,
        };
        let ignored = matches!(
            entry.status,
            Status::KnownFailure | Status::Unsupported | Status::Choice
        ) || (entry.status == Status::NewFailure && !self.strict);
        QueryTest {
            id: q.id.clone(),
            status: entry.status,
            failure,
            ignored,
        }
    }

    /// Every query's test outcome, without running a test harness (what
    /// [`Suite::trials`] turns into tests).
    pub fn judge<F>(&self, check: F) -> Result<Vec<QueryTest>, Error>
    where
        F: Fn(&[u8], &str, &str) -> bool + Send + Sync + 'static,
    {
        let (corpus, run) = self.run_corpus(check)?;
        let baseline = self.load_baseline()?;
        let result = GateResult::compare(&baseline, &corpus, &run, self.strict);
        Ok(result.entries.iter().map(|e| self.verdict_of(e)).collect())
    }
}

/// How the test of one corpus query ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryTest {
    /// The query id: the test's name.
    pub id: String,
    /// What the gate makes of it.
    pub status: Status,
    /// The failure message, when the test fails.
    pub failure: Option<String>,
    /// Whether the test is reported as ignored (a known failure, unsupported, or a new
    /// failure outside strict mode).
    pub ignored: bool,
}

/// The parser's closure as an [`Implementation`]: a panic is an `error` outcome.
struct Closure<F> {
    info: ImplInfo,
    check: F,
}

impl<F: Fn(&[u8], &str, &str) -> bool + Send + Sync> Closure<F> {
    fn new(name: &str, check: F) -> Closure<F> {
        Closure {
            info: ImplInfo {
                name: name.to_string(),
                version: "-".into(),
                language: "Rust".into(),
                capabilities: Capabilities {
                    full_urls: true,
                    ..Capabilities::default()
                },
                kind: ImplKind::InProcess,
            },
            check,
        }
    }
}

impl<F: Fn(&[u8], &str, &str) -> bool + Send + Sync> Implementation for Closure<F> {
    fn info(&self) -> &ImplInfo {
        &self.info
    }

    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
        case.queries
            .iter()
            .map(|query: &QueryInput<'_>| {
                let url = reptest_core::url::QueryUrl::new(query.url).absolute();
                match catch_unwind(AssertUnwindSafe(|| {
                    (self.check)(case.robots, query.agent, &url)
                })) {
                    Ok(allowed) => Outcome::Verdict {
                        allowed,
                        line: None,
                    },
                    Err(_) => Outcome::Error("the check panicked".into()),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parser that changes its answers: what it passed in the baseline and fails now
    /// are failing tests (regressions), and so are its known failures that pass now
    /// (stale); an unchanged parser passes.
    #[test]
    fn regressions_and_stale_entries_fail_their_tests() {
        let dir = std::env::temp_dir().join(format!("reptest-cargo-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let suite = Suite::new("flipper", dir.join("baseline.toml"));
        let recorded = suite.record(|_: &[u8], _: &str, _: &str| true).unwrap();
        assert!(!recorded.passed.is_empty() && !recorded.known_failures.is_empty());
        let failing = |tests: Vec<QueryTest>| tests.iter().filter(|t| t.failure.is_some()).count();
        let same = suite.judge(|_: &[u8], _: &str, _: &str| true).unwrap();
        assert_eq!(failing(same), 0, "an unchanged parser passes");
        let flipped = suite.judge(|_: &[u8], _: &str, _: &str| false).unwrap();
        // The flip breaks each query that passed with `allowed` (regressions) and fixes
        // each known failure that expected `disallowed` (stale).
        let regressions = flipped
            .iter()
            .filter(|t| t.status == Status::Regression)
            .count();
        let stale = flipped.iter().filter(|t| t.status == Status::Stale).count();
        assert!(regressions > 0 && stale > 0, "{regressions} {stale}");
        assert_eq!(failing(flipped), regressions + stale);
        // A missing baseline is an error naming the way to record one.
        let missing = Suite::new("x", dir.join("none.toml"));
        let error = missing
            .trials(|_: &[u8], _: &str, _: &str| true)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("REPTEST_WRITE_BASELINE=1 cargo test"),
            "{error}"
        );
    }
}
