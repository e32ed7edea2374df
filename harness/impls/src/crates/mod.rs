//! In-process adapters for robots.txt crates from crates.io.
//!
//! Each library gets one small file with its pinned version and a [`Prepare`] function:
//! given the body of one case, it returns a [`Checker`] that answers one query. Parsing
//! once per case happens in `Prepare` when the library parses independently of the
//! agent; a library that selects the agent's group while parsing (or the origin's rules)
//! parses inside the checker, once per product token (or origin) of the case through
//! [`ParsedBy`], so the queries of one agent share one parse; only a library whose API
//! parses on every check (`robotstxt`) parses once per query.
//!
//! Everything else is shared by [`CrateAdapter`]:
//!
//! - name, version, language (`Rust`) and capabilities;
//! - the URL in the form each library takes ([`Query`]): as given, absolute (a bare path
//!   is put under [`reptest_core::url::DEFAULT_ORIGIN`]), path and query only, or the robots.txt URL of its
//!   origin;
//! - the body as bytes, or lossily decoded as UTF-8 for libraries that take `&str`
//!   ([`Body`]), as a crawler reading it with `String::from_utf8_lossy` would (RFC 9309
//!   §2.2.2 lets implementations bridge a file that is not UTF-8);
//! - panics: caught with [`std::panic::catch_unwind`] and reported as
//!   `Outcome::Error("panic: ...")` with the message and location, without printing to
//!   stderr; an error the library returns becomes `Outcome::Error` too;
//! - blowups: each case runs on a pooled worker thread (one pool per adapter, grown
//!   on demand, so no thread is started per case; the answers come back at once, not one
//!   wake-up per query: `handoff.rs`) and a query that takes longer than
//!   [`Limits::timeout`] is `Outcome::Timeout`. A thread cannot be killed, so a timed-out
//!   worker is left running, at the lowest scheduling priority, and leaves the pool when
//!   it finishes; while [`Limits::max_stuck`] of one adapter's workers are still running, its
//!   further cases are not run (`Outcome::Error`), so no more threads pile up.

// Without the `crates` feature the registry lists no crate; the shared adapter code stays
// (the limits are options of every build).
#![cfg_attr(not(feature = "crates"), allow(dead_code, unused_imports))]

#[cfg(feature = "crates")]
mod cylon;
mod handoff;
#[cfg(feature = "crates")]
mod robotparser;
#[cfg(feature = "crates")]
mod robots_txt;
#[cfg(feature = "crates")]
mod robotstxt;
#[cfg(feature = "crates")]
mod robotstxt_rs;
#[cfg(feature = "crates")]
mod robotstxt_with_cache;
#[cfg(feature = "crates")]
mod robotxt;
#[cfg(feature = "crates")]
mod texting_robots;
mod workers;

use handoff::{Answers, Finish, Waited};
use reptest_core::seconds;
use reptest_core::{Capabilities, CaseInput, ImplInfo, Implementation, Outcome};
use std::any::Any;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Once};
use std::time::Duration;
use workers::{Job, Workers};

/// Every crate adapter, in registry order.
pub fn all(limits: Limits) -> Vec<Box<dyn Implementation>> {
    adapters()
        .into_iter()
        .map(|adapter| Box::new(adapter.with_limits(limits)) as Box<dyn Implementation>)
        .collect()
}

#[cfg(feature = "crates")]
fn adapters() -> Vec<CrateAdapter> {
    vec![
        robotstxt::adapter(),
        texting_robots::adapter(),
        robotxt::adapter(),
        robots_txt::adapter(),
        robotparser::adapter(),
        cylon::adapter(),
        robotstxt_rs::adapter(),
        robotstxt_with_cache::adapter(),
    ]
}

#[cfg(not(feature = "crates"))]
fn adapters() -> Vec<CrateAdapter> {
    Vec::new()
}

use reptest_core::url::QueryUrl;

/// How long one query may take (the first one includes parsing) before it is
/// `Outcome::Timeout`. It is there to stop loops and blowups, not to judge speed: the
/// slowest crate on the corpus (`robotstxt`, quadratic on the 20,000-octet rule) takes
/// well under a second per query, as the crates are optimized in dev builds too (the
/// workspace Cargo.toml's `[profile.dev.package.*]`).
pub const QUERY_TIMEOUT: Duration = Duration::from_secs(20);

/// How many timed-out workers of one adapter may still be running before its further
/// cases are refused rather than started, by default.
pub const MAX_STUCK: usize = 2;

/// The limits every crate adapter of one registry runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How long one query may take ([`QUERY_TIMEOUT`] by default).
    pub timeout: Duration,
    /// How many timed-out workers of one adapter may run on before its further cases are
    /// refused ([`MAX_STUCK`] by default). A fuzzing campaign uses a short timeout and a
    /// higher limit: one pathological input then costs a fraction of a second, and a
    /// library stuck on a few inputs still answers the others (its stuck workers run at
    /// the lowest priority).
    pub max_stuck: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            timeout: QUERY_TIMEOUT,
            max_stuck: MAX_STUCK,
        }
    }
}

/// The body of one case as a library takes it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Body<'b> {
    /// The robots.txt body, byte for byte.
    pub bytes: &'b [u8],
    /// The body decoded as UTF-8, invalid sequences replaced by U+FFFD.
    pub text: &'b str,
}

/// One query as a library takes it: the product token, and the URL in several forms.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Query<'q> {
    /// The product token (never a whole `User-Agent` header).
    pub agent: &'q str,
    /// The URL as the corpus gives it: absolute, or a path.
    pub url: &'q str,
}

impl<'q> Query<'q> {
    /// The URL, in every form a library may take ([`QueryUrl`]).
    fn url(&self) -> QueryUrl<'q> {
        QueryUrl::new(self.url)
    }

    /// Whether the URL is absolute (`scheme://...`).
    pub fn is_absolute(&self) -> bool {
        self.url().is_absolute()
    }

    /// The path and query the reference matches (no fragment, always starting with `/`).
    pub fn path(&self) -> Cow<'q, str> {
        self.url().path()
    }

    /// The URL as given when absolute, else the path under [`reptest_core::url::DEFAULT_ORIGIN`].
    pub fn absolute(&self) -> Cow<'q, str> {
        self.url().absolute()
    }

    /// The robots.txt URL of the query URL's origin.
    pub fn robots_url(&self) -> String {
        self.url().robots_url()
    }
}

/// What a library parsed from one case's body for one key (a product token, or an
/// origin), kept for the case's other queries with that key: libraries that keep only
/// one agent's group while parsing then parse once per agent of a case, not once per
/// query. The parse's error is kept too, so every query of the key gets the same answer
/// it would have got from a parse of its own. A checker's cache dies with it, and a
/// checker that panicked is replaced by a fresh one ([`answer_all`]), cache and all.
pub(crate) struct ParsedBy<T> {
    parsed: RefCell<std::collections::HashMap<String, Result<T, String>>>,
}

impl<T> ParsedBy<T> {
    /// An empty cache.
    pub(crate) fn new() -> ParsedBy<T> {
        ParsedBy {
            parsed: RefCell::new(std::collections::HashMap::new()),
        }
    }

    /// `check` applied to what `parse` gives for `key`, parsing only the first time
    /// `key` is asked.
    pub(crate) fn check(
        &self,
        key: &str,
        parse: impl FnOnce() -> Result<T, String>,
        check: impl FnOnce(&T) -> Result<bool, String>,
    ) -> Result<bool, String> {
        if !self.parsed.borrow().contains_key(key) {
            let parsed = parse();
            self.parsed.borrow_mut().insert(key.to_owned(), parsed);
        }
        match self.parsed.borrow().get(key) {
            Some(Ok(parsed)) => check(parsed),
            Some(Err(why)) => Err(why.clone()),
            None => unreachable!("inserted above"),
        }
    }
}

/// Answers one query: `Ok(true)` when allowed, `Err` for what the library reported as
/// an error.
pub(crate) type Checker<'b> = Box<dyn Fn(&Query<'_>) -> Result<bool, String> + 'b>;

/// Prepares a checker for one case's body; an `Err` is the library refusing the body.
pub(crate) type Prepare = for<'b> fn(Body<'b>) -> Result<Checker<'b>, String>;

/// A crates.io library, run in process through its [`Prepare`] function.
pub struct CrateAdapter {
    info: ImplInfo,
    /// The crates.io name, as in harness/impls/Cargo.toml.
    krate: &'static str,
    prepare: Prepare,
    limits: Limits,
    stuck: Arc<AtomicUsize>,
    workers: Arc<Workers>,
}

impl CrateAdapter {
    /// An adapter named `name` for version `version` of crate `krate`.
    pub(crate) fn new(
        name: &str,
        krate: &'static str,
        version: &str,
        full_urls: bool,
        prepare: Prepare,
    ) -> CrateAdapter {
        CrateAdapter {
            info: ImplInfo {
                name: name.into(),
                version: version.into(),
                language: "Rust".into(),
                capabilities: Capabilities {
                    full_urls,
                    fetch_outcomes: false,
                    fetches: false,
                    reports_line: false,
                },
                kind: reptest_core::ImplKind::InProcess,
            },
            krate,
            prepare,
            limits: Limits::default(),
            stuck: Arc::new(AtomicUsize::new(0)),
            workers: Workers::new(format!("reptest-{krate}")),
        }
    }

    /// The same adapter under `limits`.
    fn with_limits(self, limits: Limits) -> CrateAdapter {
        CrateAdapter { limits, ..self }
    }

    /// The same adapter with another per-query timeout than [`QUERY_TIMEOUT`].
    #[cfg(test)]
    fn with_timeout(self, timeout: Duration) -> CrateAdapter {
        self.with_limits(Limits {
            timeout,
            max_stuck: MAX_STUCK,
        })
    }
}

impl Implementation for CrateAdapter {
    fn info(&self) -> &ImplInfo {
        &self.info
    }

    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
        let count = case.queries.len();
        let stuck = self.stuck.load(Ordering::SeqCst);
        if stuck >= self.limits.max_stuck {
            let why = format!(
                "not run: {stuck} timed-out cases of this library ({}) are still running",
                self.krate
            );
            return vec![Outcome::Error(why); count];
        }
        let body = case.robots.to_vec();
        let queries: Vec<(String, String)> = case
            .queries
            .iter()
            .map(|q| (q.agent.to_owned(), q.url.to_owned()))
            .collect();
        let prepare = self.prepare;
        let answers = Arc::new(Answers::new(count));
        let worker_answers = Arc::clone(&answers);
        // Set by whichever comes first: the worker finishing, or the wait giving up.
        let settled = Arc::new(AtomicBool::new(false));
        let worker_settled = Arc::clone(&settled);
        let worker_stuck = Arc::clone(&self.stuck);
        let job: Job = Box::new(move || {
            let finish = Finish(&worker_answers);
            answer_all(prepare, &body, &queries, &|outcome| finish.0.give(outcome));
            drop(finish);
            // `true` when the wait gave up: this worker was counted as stuck.
            let was_stuck = worker_settled.swap(true, Ordering::SeqCst);
            if was_stuck {
                worker_stuck.fetch_sub(1, Ordering::SeqCst);
            }
            was_stuck
        });
        let worker = match self.workers.submit(job) {
            Ok(worker) => worker,
            Err(e) => {
                return vec![Outcome::Error(format!("cannot start a worker thread: {e}")); count]
            }
        };
        let timeout = self.limits.timeout;
        match answers.wait(count, timeout) {
            Waited::Answered(outcomes) => outcomes,
            Waited::TimedOut(mut outcomes) => {
                self.stuck.fetch_add(1, Ordering::SeqCst);
                if settled.swap(true, Ordering::SeqCst) {
                    // The worker finished just now after all.
                    self.stuck.fetch_sub(1, Ordering::SeqCst);
                } else {
                    // Let the stuck worker run on only when nothing else wants the CPU.
                    worker.lower_priority();
                }
                let why = format!("{}: no answer within {}", self.info.name, seconds(timeout));
                outcomes.resize(count, Outcome::Timeout(why));
                outcomes
            }
            Waited::Ended(mut outcomes) => {
                let why = "the worker thread ended without answering".to_string();
                outcomes.resize(count, Outcome::Error(why));
                outcomes
            }
        }
    }
}

/// Runs one case on the worker thread, giving one outcome per query to `give` as it is
/// answered, until `give` says the waiter gave up.
fn answer_all(
    prepare: Prepare,
    body: &[u8],
    queries: &[(String, String)],
    give: &dyn Fn(Outcome) -> bool,
) {
    quiet_panics();
    let text = String::from_utf8_lossy(body);
    let body = Body {
        bytes: body,
        text: &text,
    };
    let mut checker: Option<Checker<'_>> = None;
    for (agent, url) in queries {
        let query = Query { agent, url };
        if checker.is_none() {
            match guarded(|| prepare(body)) {
                Ok(ready) => checker = Some(ready),
                Err(failed) => {
                    // The library refuses (or panics on) the body: every query says so.
                    let why = failed.to_string();
                    for _ in queries {
                        if !give(Outcome::Error(why.clone())) {
                            break;
                        }
                    }
                    return;
                }
            }
        }
        let outcome = match checker.as_ref().map(|check| guarded(|| check(&query))) {
            Some(Ok(allowed)) => Outcome::Verdict {
                allowed,
                line: None,
            },
            Some(Err(failed)) => {
                if matches!(failed, Failed::Panicked(_)) {
                    // The library's state may be broken: prepare afresh for the next query.
                    checker = None;
                }
                Outcome::Error(failed.to_string())
            }
            None => unreachable!("prepared above"),
        };
        if !give(outcome) {
            return;
        }
    }
}

/// Why a library call gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Failed {
    /// The library returned an error.
    Refused(String),
    /// The library panicked (message and location).
    Panicked(String),
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failed::Refused(why) => f.write_str(why),
            Failed::Panicked(message) => write!(f, "panic: {message}"),
        }
    }
}

/// Runs `f`, telling an error it returned from a panic (shown as `panic: <message> at
/// <file:line>`).
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, Failed> {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result.map_err(Failed::Refused),
        Err(payload) => {
            let message = LAST_PANIC
                .with(|last| last.borrow_mut().take())
                .unwrap_or_else(|| payload_text(payload.as_ref()).to_string());
            Err(Failed::Panicked(message))
        }
    }
}

thread_local! {
    /// Set on worker threads: their panics are recorded here rather than printed.
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// The message and location of the last panic on a quiet thread.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Makes panics on this thread silent (recorded for [`guarded`] instead of printed),
/// installing once a panic hook that defers to the previous hook on every other thread.
pub(crate) fn quiet_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let mut message = payload_text(info.payload()).to_string();
                if let Some(location) = info.location() {
                    message = format!("{message} at {location}");
                }
                LAST_PANIC.with(|last| *last.borrow_mut() = Some(message));
            } else {
                previous(info);
            }
        }));
    });
    QUIET.with(|quiet| quiet.set(true));
}

/// The text of a panic payload (`panic!` with a literal or a formatted message).
fn payload_text(payload: &(dyn Any + Send)) -> &str {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text
    } else {
        "(a payload that is not text)"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reptest_core::QueryInput;
    use std::thread;

    fn run(prepare: Prepare, robots: &[u8], urls: &[&str]) -> Vec<Outcome> {
        evaluate_urls(
            &CrateAdapter::new("test", "test", "0", true, prepare),
            robots,
            urls,
        )
    }

    /// Runs one case of `urls`, all for agent `foobot`.
    fn evaluate_urls(adapter: &CrateAdapter, robots: &[u8], urls: &[&str]) -> Vec<Outcome> {
        let queries: Vec<QueryInput<'_>> = urls
            .iter()
            .map(|url| QueryInput {
                agent: "foobot",
                url,
            })
            .collect();
        adapter.evaluate(&CaseInput {
            robots,
            fetch: None,
            queries: &queries,
        })
    }

    #[test]
    fn panics_become_errors_and_the_next_query_still_runs() {
        fn prepare(body: Body<'_>) -> Result<Checker<'_>, String> {
            Ok(Box::new(move |q| {
                if q.url.contains("boom") {
                    panic!("boom in {}", q.url);
                }
                Ok(body.text.is_empty())
            }))
        }
        let outcomes = run(prepare, b"", &["/boom", "/fine"]);
        match &outcomes[0] {
            Outcome::Error(why) => {
                assert!(why.starts_with("panic: boom in /boom at "), "{why}");
                assert!(why.contains("mod.rs"), "{why}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(outcomes[1].allowed(), Some(true));
    }

    #[test]
    fn parsed_by_parses_once_per_key_and_keeps_the_error() {
        let parses = Cell::new(0);
        let parse = |key: &str| {
            parses.set(parses.get() + 1);
            if key == "bad" {
                Err("bad key".to_string())
            } else {
                Ok(key.len())
            }
        };
        let cache = ParsedBy::new();
        let two = |n: &usize| Ok(*n == 2);
        assert_eq!(cache.check("ab", || parse("ab"), two), Ok(true));
        assert_eq!(cache.check("ab", || parse("ab"), two), Ok(true));
        assert_eq!(cache.check("abc", || parse("abc"), two), Ok(false));
        assert_eq!(
            cache.check("bad", || parse("bad"), two),
            Err("bad key".into())
        );
        assert_eq!(
            cache.check("bad", || parse("bad"), two),
            Err("bad key".into())
        );
        assert_eq!(parses.get(), 3);
    }

    #[test]
    fn a_refused_body_is_an_error_for_every_query() {
        fn prepare(_: Body<'_>) -> Result<Checker<'_>, String> {
            Err("bad body".into())
        }
        let outcomes = run(prepare, b"x", &["/a", "/b"]);
        assert_eq!(outcomes, vec![Outcome::Error("bad body".into()); 2]);
    }

    #[test]
    fn a_slow_query_times_out_and_stuck_workers_are_bounded() {
        fn prepare(_: Body<'_>) -> Result<Checker<'_>, String> {
            Ok(Box::new(|q| {
                if q.url == "/slow" {
                    thread::sleep(Duration::from_millis(600));
                }
                Ok(true)
            }))
        }
        let adapter = CrateAdapter::new("test", "test", "0", true, prepare)
            .with_timeout(Duration::from_millis(100));
        let case = |urls: &[&str]| evaluate_urls(&adapter, b"", urls);
        let verdict = Outcome::Verdict {
            allowed: true,
            line: None,
        };
        // The query before the slow one keeps its answer; the slow one and the rest time out.
        let timeout = Outcome::Timeout("test: no answer within 0.1 s".into());
        let timed_out = vec![verdict.clone(), timeout.clone(), timeout.clone()];
        assert_eq!(case(&["/fast", "/slow", "/fast"]), timed_out);
        assert_eq!(case(&["/slow"]), vec![timeout]);
        // Two workers are still sleeping: the next case is refused, not started.
        match &case(&["/fast"])[0] {
            Outcome::Error(why) => assert!(why.starts_with("not run: 2 timed-out"), "{why}"),
            other => panic!("{other:?}"),
        }
        // Once they finish, cases run again.
        thread::sleep(Duration::from_millis(1000));
        assert_eq!(adapter.stuck.load(Ordering::SeqCst), 0);
        assert_eq!(case(&["/fast"]), vec![verdict]);
    }

    #[test]
    fn the_timeout_is_per_query_not_per_case() {
        fn prepare(_: Body<'_>) -> Result<Checker<'_>, String> {
            Ok(Box::new(|_| {
                thread::sleep(Duration::from_millis(60));
                Ok(true)
            }))
        }
        // Five queries of 60 ms each: the case takes longer than the timeout, no query does.
        let adapter = CrateAdapter::new("test", "test", "0", true, prepare)
            .with_timeout(Duration::from_millis(200));
        let outcomes = evaluate_urls(&adapter, b"", &["/1", "/2", "/3", "/4", "/5"]);
        assert!(
            outcomes.iter().all(|o| o.allowed() == Some(true)),
            "{outcomes:?}"
        );
    }

    #[test]
    fn versions_match_the_pins_in_cargo_toml_and_cargo_lock() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let read = |path: &str| -> toml::Table {
            let text = std::fs::read_to_string(dir.join(path)).unwrap();
            text.parse().unwrap_or_else(|e| panic!("{path}: {e}"))
        };
        let manifest = read("Cargo.toml");
        let lock = read("../../Cargo.lock");
        let packages = lock["package"].as_array().unwrap();
        for adapter in adapters() {
            let (krate, version) = (adapter.krate, &adapter.info.version);
            let pin = match &manifest["dependencies"][krate] {
                toml::Value::Table(table) => table["version"].as_str(),
                value => value.as_str(),
            };
            assert_eq!(pin, Some(format!("={version}").as_str()), "{krate}");
            let locked: Vec<_> = packages
                .iter()
                .filter(|p| p["name"].as_str() == Some(krate))
                .map(|p| p["version"].as_str().unwrap())
                .collect();
            assert_eq!(locked, [version.as_str()], "{krate} in Cargo.lock");
        }
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily_for_text_libraries() {
        fn prepare(body: Body<'_>) -> Result<Checker<'_>, String> {
            Ok(Box::new(move |_| {
                Ok(body.text == "a\u{FFFD}b" && body.bytes == b"a\xFFb")
            }))
        }
        assert_eq!(run(prepare, b"a\xFFb", &["/"])[0].allowed(), Some(true));
    }
}
