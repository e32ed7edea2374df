//! An adapter speaking protocol v1 or v2 over long-running processes: a pool of
//! processes, each started once, handshaken, and fed pipelined requests; timeouts and
//! crashes are recorded per query and the process is restarted.
//!
//! With an adapter that said `"protocol": 2`, a case of more than one query goes out as
//! batch requests (one body, up to [`MAX_BATCH`] queries each), so the adapter parses
//! once and checks many; a single query goes out as a v1 request. `REPTEST_PROTOCOL=1`
//! (read by the command line: [`max_protocol`], [`Persistent::with_max_protocol`]) keeps
//! every request v1.

use super::cache::Handshakes;
use super::config::AdapterSpec;
use super::pool::Pool;
use super::process::{Child, ReadError, MAX_LINE};
use super::protocol::{self, Handshake, BATCH_VERSION, MAX_VERSION};
use base64::Engine;
use reptest_core::{seconds, Environment};
use reptest_core::{
    Availability, Capabilities, CaseInput, ImplInfo, Implementation, Outcome, QueryInput,
};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// How long a starting adapter has to write its handshake.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Processes per adapter unless its registration says otherwise (`processes`): cases of
/// one adapter run concurrently on this many.
pub const POOL_SIZE: usize = 2;
/// Restarts in a row (after crashes or timeouts, with no query answered in between) per
/// adapter; after that its remaining queries in the run are recorded as `crash` without
/// starting the process again. An adapter that is only slow on some inputs answers the
/// others in between, so its slow queries are `timeout` and the rest are answered.
pub const MAX_RESTARTS: usize = 20;
/// Queries per batch request (protocol 2), at most; a case with more goes out as several
/// batch requests, pipelined.
pub const MAX_BATCH: usize = 32;
/// The answer line of a batch request may be this many bytes per query (and at least
/// the 1 MiB of a v1 answer line): [`batch_line_limit`].
pub const BATCH_LINE_PER_QUERY: usize = 64 << 10;

/// The time a batch request of `queries` queries has for its answer: the per-request
/// timeout once per query. Over v1 each of those queries would have had the whole
/// timeout for its own parse and check, so a library that answers every query in time
/// over v1 (parse + check ≤ timeout, each) answers the batch (one parse, every check)
/// in time too: batching never makes a query time out that v1 would have answered.
pub fn batch_timeout(timeout: Duration, queries: usize) -> Duration {
    timeout.saturating_mul(u32::try_from(queries.max(1)).unwrap_or(u32::MAX))
}

/// The longest answer line accepted for a request of `queries` queries:
/// [`BATCH_LINE_PER_QUERY`] per query, at least the 1 MiB of a v1 answer line (so at
/// most 2 MiB with [`MAX_BATCH`] queries).
pub fn batch_line_limit(queries: usize) -> usize {
    MAX_LINE.max(queries.saturating_mul(BATCH_LINE_PER_QUERY))
}

/// The highest protocol version to use under `environment`: its
/// [`Environment::max_protocol`] (`REPTEST_PROTOCOL`; `1` forces v1 requests with every
/// adapter), within the versions reptest speaks, else [`MAX_VERSION`].
pub fn max_protocol(environment: &Environment) -> u64 {
    environment
        .max_protocol()
        .map_or(MAX_VERSION, |v| v.clamp(protocol::VERSION, MAX_VERSION))
}

/// An adapter run over protocol v1 or v2 (`mode = "persistent"`, the default).
pub struct Persistent {
    spec: AdapterSpec,
    /// The highest protocol version used with it.
    max_protocol: u64,
    state: OnceLock<State>,
    pool: Pool<Session>,
    handshakes: Arc<Handshakes>,
    /// Restarts since a query was last answered.
    restarts: AtomicUsize,
}

struct State {
    info: ImplInfo,
    availability: Availability,
    /// The protocol version in use: the handshake's, at most `max_protocol`.
    protocol: Option<u64>,
}

impl Persistent {
    /// The adapter of `spec`; the handshake happens on the first call of
    /// [`Implementation::info`] or [`Implementation::availability`] (results are cached in
    /// `handshakes`: see [`super::cache`]), and its process is kept for the first case.
    ///
    /// The protocol version is the adapter's, at most [`MAX_VERSION`].
    pub fn new(spec: AdapterSpec, handshakes: Arc<Handshakes>) -> Persistent {
        Persistent::with_max_protocol(spec, handshakes, MAX_VERSION)
    }

    /// [`Persistent::new`], using protocol `max_protocol` at most (1: v1 requests only,
    /// even with an adapter that takes batches).
    pub fn with_max_protocol(
        spec: AdapterSpec,
        handshakes: Arc<Handshakes>,
        max_protocol: u64,
    ) -> Persistent {
        Persistent {
            pool: Pool::new(spec.processes),
            spec,
            max_protocol: max_protocol.clamp(protocol::VERSION, MAX_VERSION),
            state: OnceLock::new(),
            handshakes,
            restarts: AtomicUsize::new(0),
        }
    }

    /// The registration it was made from.
    pub fn spec(&self) -> &AdapterSpec {
        &self.spec
    }

    /// The protocol version in use (the adapter's, at most the maximum asked for), once
    /// the handshake succeeded; starts the adapter if needed.
    pub fn protocol(&self) -> Option<u64> {
        self.state().protocol
    }

    fn state(&self) -> &State {
        self.state.get_or_init(|| {
            let handshake = self.handshakes.handshake(&self.spec, || {
                let (session, handshake) = self.start()?;
                self.pool.put(session);
                Ok(handshake)
            });
            match handshake {
                Ok(handshake) => State {
                    info: self.info_from(Some(&handshake)),
                    availability: Availability::Available,
                    protocol: Some(handshake.protocol.min(self.max_protocol)),
                },
                Err(why) => State {
                    info: self.info_from(None),
                    availability: Availability::Unavailable {
                        why,
                        fix: self.spec.fix.clone(),
                    },
                    protocol: None,
                },
            }
        })
    }

    fn info_from(&self, handshake: Option<&Handshake>) -> ImplInfo {
        let language = handshake
            .map(|h| h.language.as_str())
            .filter(|l| !l.is_empty())
            .unwrap_or(&self.spec.language);
        ImplInfo {
            name: self.spec.name.clone(),
            version: handshake.map_or_else(|| "-".to_string(), |h| h.version.clone()),
            language: language.to_string(),
            capabilities: Capabilities {
                full_urls: handshake.is_some_and(|h| h.capabilities.full_urls),
                // An adapter that fetches through its library's own API is given fetch
                // cases, served on the loopback site (super::fetching); without the site
                // (feature `crawlers`) it takes bodies only.
                fetch_outcomes: cfg!(feature = "crawlers")
                    && handshake.is_some_and(|h| h.capabilities.fetches),
                fetches: cfg!(feature = "crawlers")
                    && handshake.is_some_and(|h| h.capabilities.fetches),
                reports_line: handshake.is_some_and(|h| h.capabilities.reports_line),
            },
            kind: reptest_core::ImplKind::Process,
        }
    }

    /// Starts a process and reads its handshake; the error says why it is unusable.
    fn start(&self) -> Result<(Session, Handshake), String> {
        let program = &self.spec.command[0];
        let what = match &self.spec.package {
            Some(package) => format!("{} ({package})", self.spec.name),
            None => self.spec.name.clone(),
        };
        if let Some(needs) = self.spec.needs.as_ref().filter(|dir| !dir.is_dir()) {
            return Err(format!(
                "{what}: the newest releases are not installed ({} is missing)",
                needs.display()
            ));
        }
        if self.spec.program.is_none() {
            return Err(format!("{what}: program `{program}` not found"));
        }
        let mut child = Child::spawn(&self.spec.command, true, &self.spec.process_seeds)
            .map_err(|e| format!("{what}: cannot start `{program}`: {e}"))?;
        let line = child.read_line(Instant::now() + HANDSHAKE_TIMEOUT);
        let handshake = match line {
            Ok(line) => Handshake::parse(line).map_err(|e| e.to_string()),
            Err(ReadError::Timeout) => Err(child.with_stderr(format!(
                "no handshake within {}",
                seconds(HANDSHAKE_TIMEOUT)
            ))),
            Err(ReadError::TooLong) => Err(child.with_stderr(format!(
                "the handshake line is longer than {} KiB",
                MAX_LINE >> 10
            ))),
            Err(ReadError::Eof) => Err(child.exit_report()),
        };
        match handshake {
            Ok(handshake) => {
                let batches = handshake.batches() && self.max_protocol >= BATCH_VERSION;
                Ok((
                    Session {
                        child,
                        next_id: 1,
                        batches,
                    },
                    handshake,
                ))
            }
            Err(why) if why.contains("stderr:") => Err(format!("{what}: handshake failed: {why}")),
            Err(why) => Err(format!(
                "{what}: handshake failed: {}",
                child.with_stderr(why)
            )),
        }
    }

    fn restarted(&self) -> usize {
        self.restarts.fetch_add(1, Ordering::Relaxed) + 1
    }
}

impl Implementation for Persistent {
    fn info(&self) -> &ImplInfo {
        &self.state().info
    }

    fn name(&self) -> &str {
        &self.spec.name
    }

    fn availability(&self) -> Availability {
        self.state().availability.clone()
    }

    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
        let state = self.state();
        let n = case.queries.len();
        let mut outcomes = Vec::with_capacity(n);
        if let Availability::Unavailable { why, .. } = &state.availability {
            outcomes.resize(n, Outcome::Error(format!("unavailable: {why}")));
            return outcomes;
        }
        if n == 0 {
            return outcomes;
        }
        #[cfg(feature = "crawlers")]
        if case.fetch.is_some() && state.info.capabilities.fetch_outcomes {
            return super::fetching::evaluate(self, case);
        }
        let body = base64::engine::general_purpose::STANDARD.encode(case.robots);
        self.answer_all(&Payload::Body(&body), case.queries)
    }
}

/// What a case's requests carry besides the queries.
pub(super) enum Payload<'a> {
    /// The body, base64 (version-1 and batch requests).
    Body(&'a str),
    /// A fetch request's robots.txt URL on the loopback site and the time the library's
    /// fetch may take, in milliseconds (capability `fetches`). Only made with the loopback
    /// site (feature `crawlers`, `super::fetching`).
    #[cfg_attr(not(feature = "crawlers"), allow(dead_code))]
    Fetch {
        /// The robots.txt URL.
        robots_url: &'a str,
        /// The time the fetch may take.
        timeout_ms: u64,
    },
}

impl Persistent {
    /// Answers every query, one outcome each, in order: requests go out on a leased
    /// process, started (again) as needed; a timeout or crash records its request's
    /// queries and restarts the process, up to [`MAX_RESTARTS`] in a row.
    pub(super) fn answer_all(
        &self,
        payload: &Payload<'_>,
        queries: &[QueryInput<'_>],
    ) -> Vec<Outcome> {
        let n = queries.len();
        let mut outcomes = Vec::with_capacity(n);
        let full_urls = self.state().info.capabilities.full_urls;
        let mut lease = self.pool.lease();
        while outcomes.len() < n {
            let restarts = self.restarts.load(Ordering::Relaxed);
            if restarts >= MAX_RESTARTS {
                let why = format!(
                    "{}: not run: the adapter was restarted {restarts} times in a row without answering (crashes or timeouts)",
                    self.spec.name
                );
                outcomes.resize(n, Outcome::Crash(why));
                break;
            }
            if lease.item().is_none() {
                match self.start() {
                    Ok((session, _)) => {
                        lease.set(session);
                    }
                    Err(why) => {
                        self.restarted();
                        outcomes.push(Outcome::Crash(format!("restart failed: {why}")));
                        continue;
                    }
                }
            }
            let Some(session) = lease.item() else {
                continue;
            };
            let rest = &queries[outcomes.len()..];
            let before = outcomes.len();
            let result = session.answer(&self.spec, payload, rest, full_urls, &mut outcomes);
            let lost = result.as_ref().err().map_or(0, |broken| broken.recorded);
            if outcomes.len() > before + lost {
                // Answered at least one query: the adapter works.
                self.restarts.store(0, Ordering::Relaxed);
            }
            if result.is_err() {
                lease.clear();
                self.restarted();
            }
        }
        outcomes
    }
}

/// One handshaken adapter process.
struct Session {
    child: Child,
    /// The id of the next request: ids grow over the process's life, so an answer left
    /// over from an earlier case is recognized as stale.
    next_id: u64,
    /// Cases of several queries go out as batch requests (protocol 2).
    batches: bool,
}

/// The session can no longer be used; the outcomes of the request in flight (one per
/// query, `recorded` of them) are recorded.
struct Broken {
    recorded: usize,
}

impl Session {
    /// Sends every query (one request per query over v1; batch requests of up to
    /// [`MAX_BATCH`] queries over v2, a lone query as a v1 request; with a fetch payload,
    /// fetch requests of up to [`MAX_BATCH`] queries), then reads the answers
    /// in order, pushing one outcome per query onto `outcomes`. Stops early with
    /// [`Broken`] after a timeout, a crash or an out-of-order answer, having recorded the
    /// outcome of every query of the request in flight.
    ///
    /// Each answer has [`AdapterSpec::timeout`] (a batch: [`batch_timeout`]) from the
    /// moment it is waited for, whatever arrives meanwhile (lines left over from earlier
    /// requests included).
    fn answer(
        &mut self,
        spec: &AdapterSpec,
        payload: &Payload<'_>,
        queries: &[QueryInput<'_>],
        full_urls: bool,
        outcomes: &mut Vec<Outcome>,
    ) -> Result<(), Broken> {
        let fetch = matches!(payload, Payload::Fetch { .. });
        let per_request = if self.batches || fetch { MAX_BATCH } else { 1 };
        let requests: Vec<&[QueryInput<'_>]> = queries.chunks(per_request).collect();
        let first = self.next_id;
        self.next_id += requests.len() as u64;
        self.child
            .send(request_lines(payload, first, &requests, full_urls));
        for (id, request) in (first..).zip(&requests) {
            let n = request.len();
            // A fetch request is answered like a batch, whatever its number of queries.
            let single = n == 1 && !fetch;
            let (timeout, limit) = if single {
                (spec.timeout, MAX_LINE)
            } else {
                (batch_timeout(spec.timeout, n), batch_line_limit(n))
            };
            let deadline = Instant::now() + timeout;
            let in_flight = || request_in_flight(spec, payload, id, request);
            let broken = |outcomes: &mut Vec<Outcome>, outcome: Outcome| {
                outcomes.extend(std::iter::repeat_n(outcome, n));
                Broken { recorded: n }
            };
            loop {
                let line = match self.child.read_line_within(deadline, limit) {
                    Ok(line) => line,
                    Err(ReadError::Timeout) => {
                        let why = format!("{}: no answer within {}", in_flight(), seconds(timeout));
                        return Err(broken(
                            outcomes,
                            Outcome::Timeout(self.child.with_stderr(why)),
                        ));
                    }
                    Err(ReadError::Eof) => {
                        let report = self.child.exit_report();
                        let why = format!("{} in flight: {report}", in_flight());
                        return Err(broken(outcomes, Outcome::Crash(why)));
                    }
                    Err(ReadError::TooLong) => {
                        let why = format!(
                            "{}: an answer line longer than {} KiB",
                            in_flight(),
                            limit >> 10
                        );
                        return Err(broken(outcomes, Outcome::Error(why)));
                    }
                };
                let answer = if single {
                    protocol::parse_answer(line).map(|(got, outcome)| (got, vec![outcome]))
                } else {
                    protocol::parse_batch_answer(line, n)
                };
                match answer {
                    Ok((got, answered)) if got == id => {
                        outcomes.extend(answered);
                        break;
                    }
                    // Left over from an earlier request (an extra line): skip it, within
                    // this request's deadline (read_line enforces it).
                    Ok((got, _)) if got < id => continue,
                    Ok((got, _)) => {
                        let why = format!("answers out of order: expected id {id}, got id {got}");
                        return Err(broken(outcomes, Outcome::Error(why)));
                    }
                    Err(error) => {
                        let message = error.to_string();
                        outcomes.extend(std::iter::repeat_n(Outcome::Error(message), n));
                        break;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The lines of the requests, ids from `first`: fetch requests with a fetch payload,
/// else a v1 request for a lone query and batch requests for more.
fn request_lines(
    payload: &Payload<'_>,
    first: u64,
    requests: &[&[QueryInput<'_>]],
    full_urls: bool,
) -> Vec<u8> {
    let body_len = match payload {
        Payload::Body(body) => body.len(),
        Payload::Fetch { robots_url, .. } => robots_url.len(),
    };
    let queries: usize = requests.iter().map(|r| r.len()).sum();
    let mut lines = Vec::with_capacity(requests.len() * (body_len + 64) + queries * 64);
    for (id, request) in (first..).zip(requests) {
        let urls: Vec<_> = request
            .iter()
            .map(|query| protocol::request_url(query.url, full_urls))
            .collect();
        let pairs = request.iter().zip(&urls).map(|(q, url)| (q.agent, &**url));
        match (payload, request) {
            (
                Payload::Fetch {
                    robots_url,
                    timeout_ms,
                },
                _,
            ) => protocol::write_fetch_request(&mut lines, id, robots_url, *timeout_ms, pairs),
            (Payload::Body(body), [query]) => {
                protocol::write_request(&mut lines, id, body, query.agent, &urls[0])
            }
            (Payload::Body(body), _) => protocol::write_batch_request(&mut lines, id, body, pairs),
        }
    }
    lines
}

/// The adapter and request `id` in flight (its queries: `request`), for messages.
fn request_in_flight(
    spec: &AdapterSpec,
    payload: &Payload<'_>,
    id: u64,
    request: &[QueryInput<'_>],
) -> String {
    let n = request.len();
    let query = &request[0];
    let (agent, url) = (
        protocol::truncate(query.agent, 100),
        protocol::truncate(query.url, 100),
    );
    match (payload, n) {
        (Payload::Fetch { robots_url, .. }, _) => format!(
            "{}: request {id} (a fetch of {robots_url} for {n} queries; the first: agent `{agent}`, URL `{url}`)",
            spec.name
        ),
        (_, 1) => format!("{}: request {id} (agent `{agent}`, URL `{url}`)", spec.name),
        _ => format!(
            "{}: request {id} (a batch of {n} queries; the first: agent `{agent}`, URL `{url}`)",
            spec.name
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_limits_scale_with_the_queries() {
        let t = Duration::from_millis(300);
        assert_eq!(batch_timeout(t, 0), t);
        assert_eq!(batch_timeout(t, 1), t);
        assert_eq!(batch_timeout(t, 20), Duration::from_secs(6));
        assert_eq!(batch_line_limit(1), MAX_LINE);
        assert_eq!(batch_line_limit(16), MAX_LINE);
        assert_eq!(batch_line_limit(MAX_BATCH), 2 << 20);
    }
}
