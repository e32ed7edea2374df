//! The description of a crawler: a name, a command-line template, environment variables,
//! a time limit, and the registry package it is pinned at.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::Error;

/// A real crawler, judged as a black box: how to start it against a start page.
///
/// The command line is a template: each argument (and each environment value) may hold
/// the placeholders
///
/// - `{start_url}`: the site's start page, `http://127.a.b.c:PORT/`, which links every
///   queried page;
/// - `{start_urls}`: the start pages of every site of a batch
///   ([`with_batch`](Crawler::with_batch)), each on an origin of its own: an argument that
///   is exactly `{start_urls}` becomes one argument per start page, elsewhere they are
///   joined by spaces;
/// - `{agent}`: the product token the crawler must present (as its `User-Agent`) and obey
///   (RFC 9309 §2.2.1);
/// - `{workdir}`: a fresh, empty temporary directory for this run, removed afterwards
///   (also the run's current directory).
///
/// Any other `{word}` of lowercase letters, `_` and `-` is refused, so a typo cannot silently
/// reach the crawler; other braces (JSON, a shell's `${name}`) are passed as they are. No shell is
/// involved: each template argument is one argument.
///
/// ```
/// use std::time::Duration;
/// use reptest_site::crawl::Crawler;
///
/// let crawler = Crawler::new("curl", ["curl", "-A", "{agent}", "-o", "{workdir}/page", "{start_url}"])
///     .with_env("HOME", "{workdir}")
///     .with_time_limit(Duration::from_secs(5));
/// assert_eq!(crawler.program(), "curl");
/// assert!(crawler.validate().is_ok());
/// assert!(Crawler::new("typo", ["x", "{start-url}", "{agnet}"]).validate().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crawler {
    name: String,
    command: Vec<String>,
    env: Vec<(String, String)>,
    time_limit: Duration,
    package: Option<Package>,
    version: Option<String>,
    requires: Vec<PathBuf>,
    batch: Option<Batch>,
}

/// How a crawler that takes many start pages at once is run
/// ([`Crawler::with_batch`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Batch {
    /// At most this many sites per crawl.
    sites: usize,
    /// The time limit grows by this much for each site after the first.
    per_site: Duration,
}

/// The registry package a crawler is pinned at, e.g. Debian's `wget` at
/// `1.21.3-1+deb12u1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// The registry: `apt` (Debian), `pypi`, `go`.
    pub registry: String,
    /// The package's name in that registry.
    pub name: String,
    /// The pinned version.
    pub version: String,
}

/// The placeholders a template may use.
const PLACEHOLDERS: [&str; 4] = ["start_url", "start_urls", "agent", "workdir"];

/// The placeholder of every start page of a batch.
const START_URLS: &str = "{start_urls}";

/// What the placeholders stand for in one run.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Values<'a> {
    /// The first site's start page.
    pub(crate) start_url: &'a str,
    /// Every site's start page, in order (the first is `start_url`).
    pub(crate) start_urls: &'a [String],
    pub(crate) agent: &'a str,
    pub(crate) workdir: &'a str,
}

impl Crawler {
    /// The default per-run time limit.
    pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);

    /// A crawler named `name` started by `command` (the program, then its arguments), with
    /// no extra environment and [`DEFAULT_TIME_LIMIT`](Self::DEFAULT_TIME_LIMIT).
    pub fn new<S: Into<String>>(
        name: impl Into<String>,
        command: impl IntoIterator<Item = S>,
    ) -> Self {
        Self {
            name: name.into(),
            command: command.into_iter().map(Into::into).collect(),
            env: Vec::new(),
            time_limit: Self::DEFAULT_TIME_LIMIT,
            package: None,
            version: None,
            requires: Vec::new(),
            batch: None,
        }
    }

    /// The same crawler, crawling up to `sites` sites in one run (one process given every
    /// start page, [`Crawler::run_many`]): its command must hold `{start_urls}`. A batch
    /// of `n` sites has the time limit plus `per_site` for each site after the first. A
    /// crawler whose process costs seconds to start (a runtime, an MCP session) pays that
    /// once per batch, not once per case.
    pub fn with_batch(mut self, sites: usize, per_site: Duration) -> Self {
        self.batch = Some(Batch {
            sites: sites.max(1),
            per_site,
        });
        self
    }

    /// How many sites one run may crawl: 1, or the batch size of
    /// [`with_batch`](Self::with_batch).
    pub fn batch_size(&self) -> usize {
        self.batch.map_or(1, |batch| batch.sites)
    }

    /// The time limit of a run over `sites` sites: the time limit, plus the batch's
    /// allowance for each site after the first.
    pub fn time_limit_for(&self, sites: usize) -> Duration {
        let more = u32::try_from(sites.saturating_sub(1)).unwrap_or(u32::MAX);
        let per_site = self.batch.map_or(Duration::ZERO, |batch| batch.per_site);
        self.time_limit
            .saturating_add(per_site.saturating_mul(more))
    }

    /// The same crawler with the environment variable `key` set to `value` (a template
    /// too). The rest of the environment is reptest's, minus the proxy variables
    /// (`http_proxy` and the like), so requests go straight to loopback.
    pub fn with_env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// The same crawler with this per-run time limit: at the limit, its process group is
    /// sent SIGTERM, and SIGKILL 2 s later.
    pub fn with_time_limit(mut self, time_limit: Duration) -> Self {
        self.time_limit = time_limit;
        self
    }

    /// The same crawler, pinned at this registry package.
    pub fn with_package(mut self, package: Package) -> Self {
        self.package = Some(package);
        self
    }

    /// The same crawler, stating the version it is pinned at (for one installed outside
    /// Debian's packages, e.g. in a venv of its own or built from a pinned Go module,
    /// whose version no package database tells).
    pub fn with_version(mut self, version: impl Into<String>) -> Self {
        self.version = Some(version.into());
        self
    }

    /// The same crawler, needing `path` besides its program (the package a driver script
    /// loads, e.g. a venv's console script or a `node_modules` package): it counts as
    /// installed only when `path` exists.
    pub fn with_requirement(mut self, path: impl Into<PathBuf>) -> Self {
        self.requires.push(path.into());
        self
    }

    /// The files it needs besides its program ([`with_requirement`](Self::with_requirement)).
    pub fn requirements(&self) -> &[PathBuf] {
        &self.requires
    }

    /// The version it states ([`with_version`](Self::with_version)), if any.
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The command-line template: the program, then its arguments.
    pub fn command(&self) -> &[String] {
        &self.command
    }

    /// The program (the template's first element; empty if there is none).
    pub fn program(&self) -> &str {
        self.command.first().map_or("", String::as_str)
    }

    /// The extra environment variables (templates), in order.
    pub fn env(&self) -> &[(String, String)] {
        &self.env
    }

    /// The per-run time limit.
    pub fn time_limit(&self) -> Duration {
        self.time_limit
    }

    /// The registry package it is pinned at, if any.
    pub fn package(&self) -> Option<&Package> {
        self.package.as_ref()
    }

    /// Checks that it can be run as written: a program, known placeholders only, a time
    /// limit above zero.
    pub fn validate(&self) -> Result<(), Error> {
        if self.program().is_empty() {
            return Err(Error::crawler(format!(
                "{}: the command has no program",
                self.name
            )));
        }
        if self.time_limit.is_zero() {
            return Err(Error::crawler(format!(
                "{}: the time limit must be more than zero",
                self.name
            )));
        }
        let templates = self
            .command
            .iter()
            .chain(self.env.iter().map(|(_, value)| value));
        for template in templates {
            if let Some(unknown) = unknown_placeholder(template) {
                return Err(Error::crawler(format!(
                    "{}: unknown placeholder {{{unknown}}} in {template:?} (known: {{start_url}}, \
                     {{start_urls}}, {{agent}}, {{workdir}})",
                    self.name
                )));
            }
        }
        if self.batch.is_some() && !self.command.iter().any(|arg| arg.contains(START_URLS)) {
            return Err(Error::crawler(format!(
                "{}: a crawler run in batches needs {START_URLS} in its command",
                self.name
            )));
        }
        for (key, _) in &self.env {
            if key.is_empty() || key.contains(['=', '\0']) {
                return Err(Error::crawler(format!(
                    "{}: {key:?} is not an environment variable name",
                    self.name
                )));
            }
        }
        Ok(())
    }

    /// Whether its program can be found: a path that is an executable file, or a name
    /// found in `search_path` (what `command -v` does with `PATH`; the caller's
    /// [`reptest_core::Environment::search_path`]), and every file it
    /// [requires](Self::with_requirement) exists.
    pub fn is_installed(&self, search_path: &[PathBuf]) -> bool {
        find_program(self.program(), search_path).is_some()
            && self.requires.iter().all(|path| path.exists())
    }

    /// The command line with the placeholders filled in.
    pub(crate) fn expand_command(&self, values: Values<'_>) -> Vec<String> {
        let mut argv = Vec::with_capacity(self.command.len() + values.start_urls.len());
        for arg in &self.command {
            if arg == START_URLS {
                argv.extend(values.start_urls.iter().cloned());
            } else {
                argv.push(expand(arg, values));
            }
        }
        argv
    }

    /// The extra environment with the placeholders filled in.
    pub(crate) fn expand_env(&self, values: Values<'_>) -> Vec<(String, String)> {
        self.env
            .iter()
            .map(|(key, value)| (key.clone(), expand(value, values)))
            .collect()
    }
}

impl Package {
    /// A Debian package at a version (`apt`).
    pub fn apt(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            registry: "apt".to_owned(),
            name: name.into(),
            version: version.into(),
        }
    }

    /// The shell command that installs it at its version.
    ///
    /// ```
    /// use reptest_site::crawl::Package;
    ///
    /// assert_eq!(
    ///     Package::apt("wget", "1.21.3-1+deb12u1").install_command(),
    ///     "apt-get update && apt-get install -y wget=1.21.3-1+deb12u1"
    /// );
    /// ```
    pub fn install_command(&self) -> String {
        match self.registry.as_str() {
            "apt" => format!(
                "apt-get update && apt-get install -y {}={}",
                self.name, self.version
            ),
            "pypi" => format!("pip install {}=={}", self.name, self.version),
            "go" => format!("go install {}@{}", self.name, self.version),
            other => format!("install {} {} from {other}", self.name, self.version),
        }
    }

    /// The version installed on this machine, where the registry's local database says
    /// (`dpkg-query` for `apt`); `None` when it is not installed or cannot be asked.
    pub fn installed_version(&self) -> Option<String> {
        if self.registry != "apt" {
            return None;
        }
        let output = std::process::Command::new("dpkg-query")
            .args(["-W", "-f=${Version}", &self.name])
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        let version = String::from_utf8(output.stdout).ok()?;
        (output.status.success() && !version.is_empty()).then_some(version)
    }
}

/// Fills in every known placeholder, in one pass (a value holding `{agent}` stays as
/// it is).
fn expand(template: &str, values: Values<'_>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    let start_urls = values.start_urls.join(" ");
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        rest = &rest[open..];
        let value = [
            ("{start_url}", values.start_url),
            (START_URLS, start_urls.as_str()),
            ("{agent}", values.agent),
            ("{workdir}", values.workdir),
        ]
        .into_iter()
        .find(|(placeholder, _)| rest.starts_with(placeholder));
        match value {
            Some((placeholder, value)) => {
                out.push_str(value);
                rest = &rest[placeholder.len()..];
            }
            None => {
                out.push('{');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The first `{word}` (lowercase letters, `_` and `-`) that is not a known placeholder.
fn unknown_placeholder(template: &str) -> Option<&str> {
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        // `${name}` is a shell's parameter expansion (in an `sh -c` script), never ours.
        let shell = rest[..open].ends_with('$');
        rest = &rest[open + 1..];
        let Some(close) = rest.find('}') else { break };
        let word = &rest[..close];
        let is_word = !shell
            && !word.is_empty()
            && word
                .bytes()
                .all(|byte| byte.is_ascii_lowercase() || byte == b'_' || byte == b'-');
        if is_word && !PLACEHOLDERS.contains(&word) {
            return Some(word);
        }
    }
    None
}

/// Where `program` is: itself if it names a path, else the first match in `search_path`.
pub(crate) fn find_program(program: &str, search_path: &[PathBuf]) -> Option<PathBuf> {
    if program.is_empty() {
        return None;
    }
    if program.contains('/') {
        return is_executable(Path::new(program)).then(|| PathBuf::from(program));
    }
    search_path
        .iter()
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path)
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// Checks the agent: non-empty, without control characters (it is sent as a header).
pub(crate) fn check_agent(agent: &str) -> Result<(), Error> {
    if agent.is_empty() || agent.chars().any(char::is_control) {
        return Err(Error::crawler(format!(
            "agent {agent:?} must be non-empty and without control characters"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of a run on `urls` (the first the start page) as `Bot` in `workdir`.
    fn values_for<'a>(urls: &'a [String], workdir: &'a str) -> Values<'a> {
        Values {
            start_url: &urls[0],
            start_urls: urls,
            agent: "Bot",
            workdir,
        }
    }

    #[test]
    fn placeholders_are_filled_everywhere_and_unknown_ones_refused() {
        let crawler = Crawler::new("c", ["prog", "-U", "{agent}", "--url={start_url}", "{}"])
            .with_env("OUT", "{workdir}/out");
        crawler.validate().unwrap();
        let urls = ["http://127.0.0.2:9/".to_string()];
        let values = values_for(&urls, "/tmp/w");
        assert_eq!(
            crawler.expand_command(values),
            ["prog", "-U", "Bot", "--url=http://127.0.0.2:9/", "{}"]
        );
        assert_eq!(
            crawler.expand_env(values),
            [("OUT".into(), "/tmp/w/out".into())]
        );
        let tricky = Values {
            agent: "{workdir}",
            ..values
        };
        assert_eq!(expand("{agent}{{agent}", tricky), "{workdir}{{workdir}");
        for bad in ["{start-url}", "x{agnet}", "{work_dir}"] {
            let error = Crawler::new("c", ["prog", bad]).validate().unwrap_err();
            assert!(error.is_invalid_crawler(), "{bad}: {error}");
        }
        assert!(Crawler::new("c", ["prog", r#"{"json": 1}"#])
            .validate()
            .is_ok());
        assert!(Crawler::new("c", ["sh", "-c", "echo ${http_proxy-unset}"])
            .validate()
            .is_ok());
    }

    #[test]
    fn a_batch_takes_every_start_page_and_more_time_for_each() {
        let batched = Crawler::new("b", ["prog", "{agent}", "{start_urls}"])
            .with_env("URLS", "[{start_urls}]")
            .with_time_limit(Duration::from_secs(10))
            .with_batch(8, Duration::from_secs(2));
        batched.validate().unwrap();
        assert_eq!(batched.batch_size(), 8);
        assert_eq!(batched.time_limit_for(1), Duration::from_secs(10));
        assert_eq!(batched.time_limit_for(4), Duration::from_secs(16));
        let urls = [
            "http://127.0.0.2:9/".to_string(),
            "http://127.0.0.3:9/".to_string(),
        ];
        let values = values_for(&urls, "/w");
        assert_eq!(
            batched.expand_command(values),
            ["prog", "Bot", "http://127.0.0.2:9/", "http://127.0.0.3:9/"]
        );
        assert_eq!(
            batched.expand_env(values),
            [(
                "URLS".into(),
                "[http://127.0.0.2:9/ http://127.0.0.3:9/]".into()
            )]
        );
        let single = Crawler::new("s", ["prog", "{start_url}"]);
        assert_eq!(single.batch_size(), 1);
        assert_eq!(single.time_limit_for(5), single.time_limit());
        let error = single.with_batch(4, Duration::ZERO).validate().unwrap_err();
        assert!(error.to_string().contains("{start_urls}"), "{error}");
    }

    #[test]
    fn empty_commands_zero_limits_and_bad_agents_are_refused() {
        assert!(Crawler::new("c", Vec::<String>::new()).validate().is_err());
        assert!(Crawler::new("c", ["x"])
            .with_time_limit(Duration::ZERO)
            .validate()
            .is_err());
        assert!(Crawler::new("c", ["x"])
            .with_env("A=B", "1")
            .validate()
            .is_err());
        assert!(check_agent("").is_err());
        assert!(check_agent("Bot\r\nX: y").is_err());
        assert!(check_agent("ReptestBot/1.0").is_ok());
    }

    #[test]
    fn programs_are_found_on_the_search_path_or_by_path() {
        let search_path = [PathBuf::from("/usr/bin"), PathBuf::from("/bin")];
        assert!(find_program("sh", &search_path).is_some());
        assert!(find_program("sh", &[]).is_none());
        assert!(find_program("/bin/sh", &[]).is_some());
        assert!(find_program("reptest-no-such-program", &search_path).is_none());
        assert!(find_program("", &search_path).is_none());
    }
}
