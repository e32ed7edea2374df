//! The real crawlers reptest knows, each pinned at a registry version, and the fixture
//! crawler that ignores robots.txt (the control).
//!
//! Debian's wget and httrack (C), Scrapy from PyPI (Python) in a venv of its own, and a
//! small Colly program (Go) built from its pinned module; `bash harness/external/setup
//! crawlers` installs them all.

use reptest_core::Environment;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::crawler::{Crawler, Package};
use super::fetchers::{BATCH_SITES, PER_SITE};

/// The Debian version of `wget` these definitions were verified with (bookworm).
pub const WGET_VERSION: &str = "1.21.3-1+deb12u1";
/// The Debian version of `httrack` these definitions were verified with (bookworm).
pub const HTTRACK_VERSION: &str = "3.49.4-1";

/// GNU Wget, recursive (Debian package `wget`, pinned at [`WGET_VERSION`]).
///
/// `wget --no-config -r -l 2 -nd -np -nv -e robots=on -U {agent} -P {workdir} --tries=1
/// --timeout=5 --no-proxy {start_url}`: recursion two levels deep (the start page and
/// what it links), no parent directories, robots.txt obeyed (the default for `-r`, made
/// explicit; wget requests `/robots.txt` once it wants a second document from the host),
/// `User-Agent` exactly the agent, no configuration file (a `~/.wgetrc` or
/// `/etc/wgetrc` could turn robots off), no proxy.
///
/// Its product token is its own name: wget 1.21.3 obeys the group named `wget` (or `*`),
/// not a group for the agent it presents (RFC 9309 §2.2.1 finds the group by the
/// crawler's product token; `-U` only sets the `User-Agent` header). Asked about another
/// token, its verdicts are those of its own group.
///
/// Not `--delete-after`: with it, wget 1.21.3 never requests `/robots.txt` and fetches
/// every page (observed on this site), so the crawl would say nothing about robots.txt.
/// The downloads go to `{workdir}`, which is removed after the run.
pub fn wget() -> Crawler {
    Crawler::new("wget", wget_command("wget", &["-e", "robots=on"], &[]))
        .with_env("HOME", "{workdir}")
        .with_time_limit(Duration::from_secs(10))
        .with_package(Package::apt("wget", WGET_VERSION))
}

/// The command line of [`wget`] and of its successor Wget2 (which takes wget's options):
/// `PROGRAM --no-config -r -l 2 -nd -np -nv ROBOTS... -U {agent} -P {workdir} --tries=1
/// --timeout=5 --no-proxy EXTRA... {start_url}`.
pub(super) fn wget_command(program: &str, robots: &[&str], extra: &[&str]) -> Vec<String> {
    let recursion = ["--no-config", "-r", "-l", "2", "-nd", "-np", "-nv"];
    let agent_and_limits = [
        "-U",
        "{agent}",
        "-P",
        "{workdir}",
        "--tries=1",
        "--timeout=5",
        "--no-proxy",
    ];
    std::iter::once(program)
        .chain(recursion)
        .chain(robots.iter().copied())
        .chain(agent_and_limits)
        .chain(extra.iter().copied())
        .chain(["{start_url}"])
        .map(str::to_owned)
        .collect()
}

/// HTTrack website copier (Debian package `httrack`, pinned at [`HTTRACK_VERSION`]).
///
/// `httrack {start_url} -O {workdir} -s2 -F {agent} -r2 -%e0 -a -c1 -T5 -R1 -I0 -q
/// -%v0`: `-s2` "always" follows robots.txt rules (`-s0` never does: then httrack does not
/// even request `/robots.txt`), `-F` sets the `User-Agent`, mirror depth 2 (the start
/// page and what it links), external depth 0 and `-a` (stay on the same address): only
/// the loopback origin is crawled; one connection at a time, 5 s timeout, one retry, no
/// top index, quiet (no questions). Mirror, cache and log go to `{workdir}`; `HOME` is
/// the work directory too, so no `~/.httrackrc` applies.
///
/// Like wget, httrack 3.49.4 obeys the group named after itself, `httrack` (or `*`), not
/// one for the agent given with `-F`. When the robots.txt cannot be fetched at all
/// (connection refused) it crawls everything (seen against a server that was not yet
/// listening; cf. §2.3.1.4).
pub fn httrack() -> Crawler {
    Crawler::new(
        "httrack",
        [
            "httrack",
            "{start_url}",
            "-O",
            "{workdir}",
            "-s2",
            "-F",
            "{agent}",
            "-r2",
            "-%e0",
            "-a",
            "-c1",
            "-T5",
            "-R1",
            "-I0",
            "-q",
            "-%v0",
        ],
    )
    .with_env("HOME", "{workdir}")
    .with_time_limit(Duration::from_secs(15))
    .with_package(Package::apt("httrack", HTTRACK_VERSION))
}

/// The PyPI version of Scrapy that [`scrapy`] runs, pinned (with every dependency) in
/// `harness/external/crawlers/scrapy-requirements.txt`.
pub const SCRAPY_VERSION: &str = "2.19.0";
/// The version of `github.com/gocolly/colly/v2` that [`colly`] is built with, pinned in
/// `harness/site/crawlers/colly/go.mod` (and `go.sum`).
pub const COLLY_VERSION: &str = "v2.3.0";

/// The Scrapy spider [`scrapy`] runs, in this crate's sources.
pub const SCRAPY_SPIDER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/crawlers/scrapy_spider.py");

/// Where `harness/external/setup` installs external implementations and crawlers: the
/// environment's [`Environment::state_dir`] (`REPTEST_STATE`), else
/// `harness/external/.state`.
pub fn state_dir(environment: &Environment) -> PathBuf {
    match environment.state_dir() {
        Some(dir) => dir.to_path_buf(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../external/.state"),
    }
}

/// The venv Scrapy is installed in: `crawlers/scrapy-venv` in [`state_dir`].
pub fn scrapy_venv(environment: &Environment) -> PathBuf {
    state_dir(environment).join("crawlers/scrapy-venv")
}

/// The Colly crawler's binary: `crawlers/colly-crawler` in [`state_dir`].
pub fn colly_binary(environment: &Environment) -> PathBuf {
    state_dir(environment).join("crawlers/colly-crawler")
}

/// Scrapy (PyPI `scrapy`, pinned at [`SCRAPY_VERSION`]), running the spider
/// [`SCRAPY_SPIDER`] from its own venv ([`scrapy_venv`] of `environment`).
///
/// `{venv}/bin/scrapy runspider scrapy_spider.py -a start={start_urls} -s
/// USER_AGENT={agent} -s ROBOTSTXT_USER_AGENT={agent} -s ROBOTSTXT_OBEY=True -s
/// ROBOTSTXT_PARSER=scrapy.robotstxt.ProtegoRobotParser -s DEPTH_LIMIT=2 ...`: the spider
/// follows every `<a href>` on the start URL's host (`allowed_domains`, which Scrapy's
/// offsite filter compares without the port), robots.txt obeyed by Scrapy's
/// `RobotsTxtMiddleware` with its default parser, Protego (made explicit), no retries
/// (`RETRY_ENABLED=False`: Scrapy would otherwise ask for a 5xx robots.txt three times),
/// a 5 s download timeout, eight requests at a time, no cookies, no proxy middleware, no
/// telnet console, no HTTP cache, warnings only; in batches of [`BATCH_SITES`] sites (the
/// start pages given space-separated, each site's host allowed, one robots.txt per
/// origin: Scrapy's middleware keeps one parser per host and port). `HOME` is the work
/// directory, and no `__pycache__` is written next to the spider.
///
/// Its product token is the agent: `ROBOTSTXT_USER_AGENT` is the string Scrapy matches
/// groups against (when unset, it uses the request's `User-Agent`, here the same).
/// Protego 0.7.0 takes the group whose name occurs in that string at a token start,
/// case-insensitively, the longest such name winning, else `*`. Scrapy's middleware
/// parses whatever body the robots.txt request returns, whatever its status (a 404 or
/// 503 with rules is obeyed as if it were a 200: observed), and lets every request
/// through when the request fails (a reset mid-body: observed in `reptest run`).
pub fn scrapy(environment: &Environment) -> Crawler {
    let scrapy = scrapy_venv(environment).join("bin/scrapy");
    let mut command = vec![
        scrapy.to_string_lossy().into_owned(),
        "runspider".to_owned(),
        SCRAPY_SPIDER.to_owned(),
        "-a".to_owned(),
        "start={start_urls}".to_owned(),
    ];
    let settings = [
        "USER_AGENT={agent}",
        "ROBOTSTXT_USER_AGENT={agent}",
        "ROBOTSTXT_OBEY=True",
        "ROBOTSTXT_PARSER=scrapy.robotstxt.ProtegoRobotParser",
        "DEPTH_LIMIT=2",
        "LOG_LEVEL=WARNING",
        "TELNETCONSOLE_ENABLED=False",
        "HTTPCACHE_ENABLED=False",
        "RETRY_ENABLED=False",
        "DOWNLOAD_TIMEOUT=5",
        "CONCURRENT_REQUESTS=8",
        "COOKIES_ENABLED=False",
        "HTTPPROXY_ENABLED=False",
    ];
    for setting in settings {
        command.push("-s".to_owned());
        command.push(setting.to_owned());
    }
    Crawler::new("scrapy", command)
        .with_env("HOME", "{workdir}")
        .with_env("PYTHONDONTWRITEBYTECODE", "1")
        .with_time_limit(Duration::from_secs(15))
        .with_batch(BATCH_SITES, PER_SITE)
        .with_version(SCRAPY_VERSION)
}

/// A small Colly program (`harness/site/crawlers/colly/main.go`, Go module
/// `github.com/gocolly/colly/v2` pinned at [`COLLY_VERSION`]), built by
/// `harness/external/setup crawlers` into [`colly_binary`] of `environment`.
///
/// `colly-crawler -start {start_url} -agent {agent}`: visits the start page, then every
/// `<a href>` on the same host and port, to depth 2 (`colly.MaxDepth(2)`: the start page
/// and what it links), with `colly.UserAgent(agent)` and a 5 s request timeout.
/// `IgnoreRobotsTxt` is set to `false` (`NewCollector` defaults it to `true`), so Colly
/// fetches `/robots.txt` before the first request to a host and parses it with
/// `github.com/temoto/robotstxt` v1.1.2 (`FromResponse`: a 2xx body is parsed, 4xx allows
/// everything, 5xx is marked "disallow all"); when the robots.txt request fails, the page
/// is not visited.
///
/// Its product token is the agent: Colly asks temoto's `FindGroup` with its `UserAgent`,
/// which takes the longest group name that is a case-insensitive prefix of it, else `*`.
/// `FindGroup` does not read the "disallow all" mark (only temoto's `TestAgent` does), so
/// on a 5xx robots.txt Colly fetches every page (observed).
pub fn colly(environment: &Environment) -> Crawler {
    Crawler::new(
        "colly",
        [
            colly_binary(environment).to_string_lossy().into_owned(),
            "-start".to_owned(),
            "{start_url}".to_owned(),
            "-agent".to_owned(),
            "{agent}".to_owned(),
        ],
    )
    .with_env("HOME", "{workdir}")
    .with_time_limit(Duration::from_secs(15))
    .with_version(COLLY_VERSION)
}

/// The path of the fixture crawler that ignores robots.txt, in this crate's sources.
pub const IGNORE_ROBOTS_SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/ignore_robots.py"
);

/// The control: a Python 3 script (standard library only) that fetches the start page and
/// every same-origin page it links, two levels deep, and never `/robots.txt`. A judge
/// that is right calls it wrong exactly where robots.txt disallows.
///
/// `python3 tests/fixtures/ignore_robots.py {start_url} {agent}` (the script's path is
/// [`IGNORE_ROBOTS_SCRIPT`], in this crate's source tree).
pub fn ignore_robots_fixture() -> Crawler {
    Crawler::new(
        "ignore-robots-fixture",
        ["python3", IGNORE_ROBOTS_SCRIPT, "{start_url}", "{agent}"],
    )
    .with_time_limit(Duration::from_secs(10))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wget_and_wget2_take_the_same_options() {
        let wget = wget();
        assert_eq!(
            wget.command().join(" "),
            "wget --no-config -r -l 2 -nd -np -nv -e robots=on -U {agent} -P {workdir} \
             --tries=1 --timeout=5 --no-proxy {start_url}"
        );
        assert_eq!(
            super::super::wget2().command().join(" "),
            "wget2 --no-config -r -l 2 -nd -np -nv --robots=on -U {agent} -P {workdir} \
             --tries=1 --timeout=5 --no-proxy --max-threads=2 {start_url}"
        );
    }
}
