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
    /// The time limit it ran under ([`Crawler::time_limit_for`] its sites).
    pub time_limit: Duration,
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

/// A crawler running against a site (or, in a batch, several: [`Crawler::start_many`]).
/// [`wait`](Self::wait) for its report; dropping it instead ends the crawler's process
/// group (SIGTERM, SIGKILL 2 s later), stops the sites and removes the work directory,
/// also while unwinding from a panic.
#[derive(Debug)]
pub struct Crawl {
    // Drop order is declaration order: the group first, then the sites, the work
    // directory last.
    group: Group,
    stdout: Option<Capture>,
    stderr: Option<Capture>,
    /// Each site with its queried pages; at least one.
    sites: Vec<(Site, Vec<String>)>,
    workdir: tempfile::TempDir,
    crawler: String,
    agent: String,
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

    /// Runs it once against a site per scenario, each on an origin of its own, all their
    /// start pages given to one process (`{start_urls}`, [`with_batch`](Self::with_batch)),
    /// and judges each site from its own request log: one report per scenario, in order,
    /// sharing the process's exit, time and output. One scenario needs no batch.
    ///
    /// ```
    /// use reptest_site::{crawl::{Crawler, Verdict}, Scenario};
    /// use std::time::Duration;
    ///
    /// // A "crawler" that fetches nothing, given every start page at once.
    /// let idle = Crawler::new("idle", ["sh", "-c", "echo $# >&2", "idle", "{start_urls}"])
    ///     .with_batch(4, Duration::from_secs(1));
    /// let scenarios = [
    ///     Scenario::new(200, "").with_pages(["/a"]),
    ///     Scenario::new(503, "").with_pages(["/b"]),
    /// ];
    /// let reports = idle.run_many(&scenarios, "ReptestBot")?;
    /// assert_eq!(reports.len(), 2);
    /// assert_eq!(reports[1].verdict("/b"), Some(Verdict::Disallowed));
    /// assert_eq!(reports[0].stderr_tail, ["2"]);
    /// # Ok::<(), reptest_site::Error>(())
    /// ```
    pub fn run_many(&self, scenarios: &[Scenario], agent: &str) -> Result<Vec<CrawlReport>, Error> {
        Ok(self.start_many(scenarios, agent)?.wait_all())
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
        self.launch(options, std::slice::from_ref(scenario), agent)
    }

    /// Starts it against a site per scenario, without waiting ([`run_many`](Self::run_many)):
    /// more scenarios than its batch size, or none, is an error.
    pub fn start_many(&self, scenarios: &[Scenario], agent: &str) -> Result<Crawl, Error> {
        if scenarios.is_empty() || scenarios.len() > self.batch_size() {
            return Err(Error::crawler(format!(
                "{}: takes 1 to {} sites at once, not {}",
                self.name(),
                self.batch_size(),
                scenarios.len()
            )));
        }
        let options = options_for(self.time_limit_for(scenarios.len()));
        self.launch(&options, scenarios, agent)
    }

    /// Starts the sites, then the crawler against their start pages.
    fn launch(
        &self,
        options: &Options,
        scenarios: &[Scenario],
        agent: &str,
    ) -> Result<Crawl, Error> {
        self.validate()?;
        check_agent(agent)?;
        let workdir = tempfile::Builder::new()
            .prefix("reptest-crawl-")
            .tempdir()
            .map_err(Error::setup)?;
        let sites = scenarios
            .iter()
            .map(|scenario| Ok((options.start(scenario)?, scenario.pages.clone())))
            .collect::<Result<Vec<_>, Error>>()?;
        let start_urls: Vec<String> = sites.iter().map(|(site, _)| site.start_url()).collect();
        let workdir_text = workdir.path().to_string_lossy().into_owned();
        let values = Values {
            start_url: &start_urls[0],
            start_urls: &start_urls,
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
            sites,
            workdir,
            crawler: self.name().to_owned(),
            agent: agent.to_owned(),
            started,
            time_limit: self.time_limit_for(scenarios.len()),
        })
    }
}

impl Crawl {
    /// The crawler's process group id (its leader's process id).
    pub fn process_group(&self) -> u32 {
        self.group.id()
    }

    /// The (first) site's first origin, `http://127.a.b.c:PORT`.
    pub fn origin(&self) -> &str {
        self.sites[0].0.origin()
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
    /// its process group, stops the site and judges (the first site's report, the only one
    /// unless it was started with [`Crawler::start_many`]).
    pub fn wait(self) -> CrawlReport {
        self.wait_all().swap_remove(0)
    }

    /// [`wait`](Self::wait), with one report per site, in the order of the scenarios.
    pub fn wait_all(mut self) -> Vec<CrawlReport> {
        let deadline = self.started + self.time_limit;
        let exited_at = self.group.wait_leader(deadline);
        self.finish(exited_at)
    }

    /// Ends the crawler now (as at its time limit), stops the site and judges.
    pub fn stop(mut self) -> CrawlReport {
        let exited_at = self.group.leader_exited().then(Instant::now);
        self.finish(exited_at).swap_remove(0)
    }

    fn finish(self, exited_at: Option<Instant>) -> Vec<CrawlReport> {
        let Crawl {
            mut group,
            stdout,
            stderr,
            sites,
            workdir,
            crawler,
            agent,
            started,
            time_limit,
        } = self;
        let timed_out = exited_at.is_none();
        let elapsed = exited_at.unwrap_or_else(Instant::now) - started;
        let ended = group.end();
        let drained = Instant::now() + DRAIN;
        let (stdout_tail, stdout_bytes) =
            stdout.map_or((Vec::new(), 0), |capture| capture.finish(drained));
        let (stderr_tail, stderr_bytes) =
            stderr.map_or((Vec::new(), 0), |capture| capture.finish(drained));
        let report = CrawlReport {
            crawler,
            agent,
            verdicts: Vec::new(),
            fetched_robots: false,
            requests: Vec::new(),
            other_paths: Vec::new(),
            exit: ended.exit,
            timed_out,
            stragglers_killed: ended.signalled && !timed_out,
            elapsed,
            time_limit,
            stderr_tail,
            stderr_bytes,
            stdout_tail,
            stdout_bytes,
            site_stop: StopReason::Stopped,
            process_group: group.id(),
        };
        let reports = sites
            .into_iter()
            .map(|(site, pages)| {
                let origin = site.origin().to_owned();
                let stopped = site.stop();
                let judgement = judge(&pages, &origin, &stopped.requests);
                CrawlReport {
                    verdicts: judgement.verdicts,
                    fetched_robots: judgement.fetched_robots,
                    requests: stopped.requests,
                    other_paths: judgement.other_paths,
                    site_stop: stopped.reason,
                    ..report.clone()
                }
            })
            .collect();
        drop(workdir);
        reports
    }
}
