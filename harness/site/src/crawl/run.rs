//! One run: start the site, start the crawler against its start page, wait for it (or
//! end it at the time limit), stop the site, judge from the request log.

use std::fmt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::log::Request;
use crate::scenario::Scenario;
use crate::served_case::options_for;
use crate::site::{Options, Site, StopReason};

use super::capture::Capture;
use super::crawler::{check_agent, Crawler, Values};
use super::group::Group;
use super::judge::{judge, PageVerdict, Verdict};

/// How long the output readers get, once the group is ended, to reach the end of their
/// streams.
const DRAIN: Duration = Duration::from_millis(500);
/// Proxy variables removed from the crawler's environment: every request must go
/// straight to the loopback site.
const PROXY_VARIABLES: [&str; 8] = [
    "http_proxy",
    "HTTP_PROXY",
    "https_proxy",
    "HTTPS_PROXY",
    "all_proxy",
    "ALL_PROXY",
    "ftp_proxy",
    "FTP_PROXY",
];

/// How the crawler's leading process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it (e.g. 15, SIGTERM, or 9, SIGKILL, at the time limit).
    Signal(i32),
    /// Its status could not be collected (it resisted even SIGKILL).
    Unknown,
}

impl Exit {
    /// Whether it exited with code 0.
    pub fn success(self) -> bool {
        self == Self::Code(0)
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Code(code) => write!(f, "exit code {code}"),
            Self::Signal(signal) => write!(f, "killed by signal {signal}"),
            Self::Unknown => f.write_str("unknown exit"),
        }
    }
}

/// What one crawler did against one scenario, judged from the site's request log.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CrawlReport {
    /// The crawler's name.
    pub crawler: String,
    /// The product token it was given.
    pub agent: String,
    /// One verdict per queried page, in the scenario's order (each path once): `allowed`
    /// when it was fetched (GET, any status), else `disallowed`.
    pub verdicts: Vec<PageVerdict>,
    /// Whether it requested `/robots.txt` at all (RFC 9309 §2.3: the rules live there,
    /// so a crawler that never requests it has obeyed nothing).
    pub fetched_robots: bool,
    /// Every request the site answered, in arrival order.
    pub requests: Vec<Request>,
    /// Requested paths that are neither the start page, the robots.txt, a redirect hop
    /// nor a queried page (a crawler rewriting a queried path shows up here).
    pub other_paths: Vec<String>,
    /// How its leading process ended.
    pub exit: Exit,
    /// It was still running at the time limit and was ended (SIGTERM, then SIGKILL).
    pub timed_out: bool,
    /// Some process of its group outlived the leader (or the limit) and was signalled.
    pub stragglers_killed: bool,
    /// From its start until its leader exited, or until the time limit.
    pub elapsed: Duration,
    /// The last lines of its stderr (at most 20, each cut at about 300 bytes).
    pub stderr_tail: Vec<String>,
    /// How many bytes it wrote to stderr in all.
    pub stderr_bytes: u64,
    /// The last lines of its stdout (at most 20, each cut at about 300 bytes).
    pub stdout_tail: Vec<String>,
    /// How many bytes it wrote to stdout in all.
    pub stdout_bytes: u64,
    /// Why the site stopped (a [`StopReason::RequestLimit`] means the crawler hit the
    /// site's request bound, and the log is cut there).
    pub site_stop: StopReason,
    /// The process group the crawler ran in (its leader's process id); none of its
    /// processes runs any more.
    pub process_group: u32,
}

impl CrawlReport {
    /// The verdict for a queried page.
    pub fn verdict(&self, path: &str) -> Option<Verdict> {
        self.verdicts
            .iter()
            .find(|page| page.path == path)
            .map(|page| page.verdict)
    }

    /// How many requests it made (that the site answered).
    pub fn request_count(&self) -> usize {
        self.requests.len()
    }

    /// The paths, in `expected`'s order, whose verdict differs from the expected one (a
    /// path that was not queried counts as differing).
    pub fn mismatches<'a>(
        &self,
        expected: impl IntoIterator<Item = (&'a str, Verdict)>,
    ) -> Vec<String> {
        expected
            .into_iter()
            .filter(|&(path, verdict)| self.verdict(path) != Some(verdict))
            .map(|(path, _)| path.to_owned())
            .collect()
    }
}

/// A crawler running against a site. [`wait`](Self::wait) for its report; dropping it
/// instead ends the crawler's process group (SIGTERM, SIGKILL 2 s later), stops the site
/// and removes the work directory, also while unwinding from a panic.
#[derive(Debug)]
pub struct Crawl {
    // Drop order is declaration order: the group first, then the site, the work
    // directory last.
    group: Group,
    stdout: Option<Capture>,
    stderr: Option<Capture>,
    site: Site,
    workdir: tempfile::TempDir,
    crawler: String,
    agent: String,
    pages: Vec<String>,
    started: Instant,
    time_limit: Duration,
}

impl Crawler {
    /// Runs it against `scenario` (whose `pages` are the queried paths) with `agent`, and
    /// judges it. The site lives for the time limit plus a margin
    /// ([`options_for`]).
    ///
    /// Only setting up is an error (an invalid crawler or scenario, a program that cannot
    /// be started); whatever the crawler does once running is in the report.
    ///
    /// ```
    /// use reptest_site::{crawl::{Crawler, Verdict}, Scenario};
    ///
    /// // A "crawler" that fetches nothing: every page is judged disallowed.
    /// let report = Crawler::new("idle", ["true"])
    ///     .run(&Scenario::new(200, "").with_pages(["/a"]), "ReptestBot")?;
    /// assert_eq!(report.verdict("/a"), Some(Verdict::Disallowed));
    /// assert!(report.exit.success() && !report.fetched_robots);
    /// # Ok::<(), reptest_site::Error>(())
    /// ```
    pub fn run(&self, scenario: &Scenario, agent: &str) -> Result<CrawlReport, Error> {
        Ok(self.start(scenario, agent)?.wait())
    }

    /// Like [`run`](Self::run), with the site started with `options` (its lifetime should
    /// exceed the crawler's time limit).
    pub fn run_with(
        &self,
        options: &Options,
        scenario: &Scenario,
        agent: &str,
    ) -> Result<CrawlReport, Error> {
        Ok(self.start_with(options, scenario, agent)?.wait())
    }

    /// Starts it against `scenario` with `agent`, without waiting.
    pub fn start(&self, scenario: &Scenario, agent: &str) -> Result<Crawl, Error> {
        let options = options_for(self.time_limit());
        self.start_with(&options, scenario, agent)
    }

    /// Starts it against `scenario` on a site started with `options`, without waiting.
    pub fn start_with(
        &self,
        options: &Options,
        scenario: &Scenario,
        agent: &str,
    ) -> Result<Crawl, Error> {
        self.validate()?;
        check_agent(agent)?;
        let workdir = tempfile::Builder::new()
            .prefix("reptest-crawl-")
            .tempdir()
            .map_err(Error::setup)?;
        let site = options.start(scenario)?;
        let start_url = site.start_url();
        let workdir_text = workdir.path().to_string_lossy().into_owned();
        let values = Values {
            start_url: &start_url,
            agent,
            workdir: &workdir_text,
        };
        let argv = self.expand_command(values);
        let Some((program, args)) = argv.split_first() else {
            return Err(Error::crawler(format!("{}: empty command", self.name())));
        };
        let mut command = Command::new(program);
        command
            .args(args)
            .current_dir(workdir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for variable in PROXY_VARIABLES {
            command.env_remove(variable);
        }
        command.envs(self.expand_env(values));
        let started = Instant::now();
        let mut group = Group::spawn(&mut command).map_err(|error| Error::spawn(program, error))?;
        // From here on the group's guard ends the crawler on any early return.
        let stdout = group
            .take_stdout()
            .map(|out| Capture::start("reptest-crawl-out", out))
            .transpose()
            .map_err(Error::setup)?;
        let stderr = group
            .take_stderr()
            .map(|err| Capture::start("reptest-crawl-err", err))
            .transpose()
            .map_err(Error::setup)?;
        Ok(Crawl {
            group,
            stdout,
            stderr,
            site,
            workdir,
            crawler: self.name().to_owned(),
            agent: agent.to_owned(),
            pages: scenario.pages.clone(),
            started,
            time_limit: self.time_limit(),
        })
    }
}

impl Crawl {
    /// The crawler's process group id (its leader's process id).
    pub fn process_group(&self) -> u32 {
        self.group.id()
    }

    /// The site's first origin, `http://127.a.b.c:PORT`.
    pub fn origin(&self) -> &str {
        self.site.origin()
    }

    /// The run's work directory (`{workdir}`).
    pub fn workdir(&self) -> &Path {
        self.workdir.path()
    }

    /// Whether the crawler's leading process has exited.
    pub fn is_finished(&mut self) -> bool {
        self.group.leader_exited()
    }

    /// Waits until the crawler exits or its time limit passes, then ends what is left of
    /// its process group, stops the site and judges.
    pub fn wait(mut self) -> CrawlReport {
        let deadline = self.started + self.time_limit;
        let exited_at = self.group.wait_leader(deadline);
        self.finish(exited_at)
    }

    /// Ends the crawler now (as at its time limit), stops the site and judges.
    pub fn stop(mut self) -> CrawlReport {
        let exited_at = self.group.leader_exited().then(Instant::now);
        self.finish(exited_at)
    }

    fn finish(self, exited_at: Option<Instant>) -> CrawlReport {
        let Crawl {
            mut group,
            stdout,
            stderr,
            site,
            workdir,
            crawler,
            agent,
            pages,
            started,
            time_limit: _,
        } = self;
        let timed_out = exited_at.is_none();
        let elapsed = exited_at.unwrap_or_else(Instant::now) - started;
        let ended = group.end();
        let drained = Instant::now() + DRAIN;
        let (stdout_tail, stdout_bytes) =
            stdout.map_or((Vec::new(), 0), |capture| capture.finish(drained));
        let (stderr_tail, stderr_bytes) =
            stderr.map_or((Vec::new(), 0), |capture| capture.finish(drained));
        let origin = site.origin().to_owned();
        let stopped = site.stop();
        drop(workdir);
        let judgement = judge(&pages, &origin, &stopped.requests);
        CrawlReport {
            crawler,
            agent,
            verdicts: judgement.verdicts,
            fetched_robots: judgement.fetched_robots,
            requests: stopped.requests,
            other_paths: judgement.other_paths,
            exit: ended.exit,
            timed_out,
            stragglers_killed: ended.signalled && !timed_out,
            elapsed,
            stderr_tail,
            stderr_bytes,
            stdout_tail,
            stdout_bytes,
            site_stop: stopped.reason,
            process_group: group.id(),
        }
    }
}
