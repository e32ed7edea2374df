//! An adapter speaking protocol v1 over long-running processes: a pool of processes,
//! each started once, handshaken, and fed pipelined requests; timeouts and crashes are
//! recorded per query and the process is restarted.

use super::cache::Handshakes;
use super::config::{find_program, AdapterSpec};
use super::pool::Pool;
use super::process::{Child, ReadError, MAX_LINE};
use super::protocol::{self, Handshake};
use base64::Engine;
use reptest_core::seconds;
use reptest_core::{
    Availability, Capabilities, CaseInput, ImplInfo, Implementation, Outcome, QueryInput,
};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// How long a starting adapter has to write its handshake.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Processes per adapter: cases of one adapter run concurrently on this many.
pub const POOL_SIZE: usize = 2;
/// Restarts in a row (after crashes or timeouts, with no query answered in between) per
/// adapter; after that its remaining queries in the run are recorded as `crash` without
/// starting the process again. An adapter that is only slow on some inputs answers the
/// others in between, so its slow queries are `timeout` and the rest are answered.
pub const MAX_RESTARTS: usize = 20;

/// An adapter run over protocol v1 (`mode = "persistent"`, the default).
pub struct Persistent {
    spec: AdapterSpec,
    state: OnceLock<State>,
    pool: Pool<Session>,
    handshakes: Arc<Handshakes>,
    /// Restarts since a query was last answered.
    restarts: AtomicUsize,
}

struct State {
    info: ImplInfo,
    availability: Availability,
}

impl Persistent {
    /// The adapter of `spec`; the handshake happens on the first call of
    /// [`Implementation::info`] or [`Implementation::availability`] (results are cached in
    /// `handshakes`: see [`super::cache`]), and its process is kept for the first case.
    pub fn new(spec: AdapterSpec, handshakes: Arc<Handshakes>) -> Persistent {
        Persistent {
            spec,
            state: OnceLock::new(),
            pool: Pool::new(POOL_SIZE),
            handshakes,
            restarts: AtomicUsize::new(0),
        }
    }

    /// The registration it was made from.
    pub fn spec(&self) -> &AdapterSpec {
        &self.spec
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
                },
                Err(why) => State {
                    info: self.info_from(None),
                    availability: Availability::Unavailable {
                        why,
                        fix: self.spec.fix.clone(),
                    },
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
                fetch_outcomes: false,
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
        if find_program(program).is_none() {
            return Err(format!("{what}: program `{program}` not found"));
        }
        let mut child = Child::spawn(&self.spec.command, true)
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
            Ok(handshake) => Ok((Session { child, next_id: 1 }, handshake)),
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
        let body = base64::engine::general_purpose::STANDARD.encode(case.robots);
        let full_urls = state.info.capabilities.full_urls;
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
            let queries = &case.queries[outcomes.len()..];
            let before = outcomes.len();
            let result = session.answer(&self.spec, &body, queries, full_urls, &mut outcomes);
            if outcomes.len() > before + usize::from(result.is_err()) {
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
}

/// The session can no longer be used (its outcome for the query in flight is recorded).
struct Broken;

impl Session {
    /// Sends every query, then reads the answers in order, pushing one outcome per query
    /// onto `outcomes`. Stops early with [`Broken`] after a timeout, a crash or an
    /// out-of-order answer, having recorded the outcome of the query in flight.
    ///
    /// Each answer has [`AdapterSpec::timeout`] from the moment it is waited for, whatever
    /// arrives meanwhile (lines left over from earlier requests included).
    fn answer(
        &mut self,
        spec: &AdapterSpec,
        body: &str,
        queries: &[QueryInput<'_>],
        full_urls: bool,
        outcomes: &mut Vec<Outcome>,
    ) -> Result<(), Broken> {
        let first = self.next_id;
        self.next_id += queries.len() as u64;
        let line_len = body.len() + 64;
        let mut batch = Vec::with_capacity(queries.len() * line_len);
        for (id, query) in (first..).zip(queries) {
            let url = protocol::request_url(query.url, full_urls);
            protocol::write_request(&mut batch, id, body, query.agent, &url);
        }
        self.child.send(batch);
        for (id, query) in (first..).zip(queries) {
            let deadline = Instant::now() + spec.timeout;
            // The adapter and the query in flight, for messages.
            let in_flight = || {
                format!(
                    "{}: request {id} (agent `{}`, URL `{}`)",
                    spec.name,
                    protocol::truncate(query.agent, 100),
                    protocol::truncate(query.url, 100)
                )
            };
            loop {
                let line = match self.child.read_line(deadline) {
                    Ok(line) => line,
                    Err(ReadError::Timeout) => {
                        let why = format!(
                            "{}: no answer within {}",
                            in_flight(),
                            seconds(spec.timeout)
                        );
                        outcomes.push(Outcome::Timeout(self.child.with_stderr(why)));
                        return Err(Broken);
                    }
                    Err(ReadError::Eof) => {
                        let report = self.child.exit_report();
                        outcomes.push(Outcome::Crash(format!(
                            "{} in flight: {report}",
                            in_flight()
                        )));
                        return Err(Broken);
                    }
                    Err(ReadError::TooLong) => {
                        outcomes.push(Outcome::Error(format!(
                            "{}: an answer line longer than {} KiB",
                            in_flight(),
                            MAX_LINE >> 10
                        )));
                        return Err(Broken);
                    }
                };
                match protocol::parse_answer(line) {
                    Ok((got, outcome)) if got == id => {
                        outcomes.push(outcome);
                        break;
                    }
                    // Left over from an earlier request (an extra line): skip it, within
                    // this request's deadline (read_line enforces it).
                    Ok((got, _)) if got < id => continue,
                    Ok((got, _)) => {
                        outcomes.push(Outcome::Error(format!(
                            "answers out of order: expected id {id}, got id {got}"
                        )));
                        return Err(Broken);
                    }
                    Err(message) => {
                        outcomes.push(Outcome::Error(message));
                        break;
                    }
                }
            }
        }
        Ok(())
    }
}
