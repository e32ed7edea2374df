//! The crawlers and AI-agent fetchers judged beside wget, httrack, Scrapy and Colly, each
//! pinned at a registry version: GNU Wget2 (Debian, C), the MCP fetch server and Crawlee
//! for Python (PyPI, each in a venv of its own), Crawlee for JavaScript and simplecrawler
//! (npm), the `spider` crate (crates.io, Rust), and libwww-perl's `LWP::RobotUA` (Perl)
//! and LinkChecker (Python), both from Debian. `bash harness/external/setup crawlers`
//! installs them all into the state folder ([`state_dir`]).
//!
//! Each section says how the crawler is told the product token, what it sends as
//! `User-Agent`, and which group it obeys (RFC 9309 §2.2.1: the group is found by the
//! crawler's product token): the token it is given, its own name, or always `*`.

use reptest_core::Environment;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::crawler::{Crawler, Package};
use super::pinned::{state_dir, wget_command};

/// The Debian version of `wget2` [`wget2`] was verified with (bookworm).
pub const WGET2_VERSION: &str = "1.99.1-2.2";
/// The PyPI version of `mcp-server-fetch` [`mcp_fetch`] runs, pinned (with every
/// dependency) in `harness/external/crawlers/mcp-fetch-requirements.txt`.
pub const MCP_FETCH_VERSION: &str = "2026.10.24";
/// The PyPI version of `crawlee` [`crawlee_python`] runs, pinned (with every dependency)
/// in `harness/external/crawlers/crawlee-requirements.txt`.
pub const CRAWLEE_PYTHON_VERSION: &str = "1.11.0";
/// The PyPI version of `trafilatura` [`trafilatura`] runs, pinned (with every dependency)
/// in `harness/external/crawlers/trafilatura-requirements.txt`.
pub const TRAFILATURA_VERSION: &str = "2.3.1";
/// The npm version of `@crawlee/cheerio` [`crawlee_js`] runs, pinned in
/// `harness/external/crawlers/node/package.json` (and its `package-lock.json`).
pub const CRAWLEE_JS_VERSION: &str = "3.18.1";
/// The npm version of `simplecrawler` [`simplecrawler`] runs, pinned like
/// [`CRAWLEE_JS_VERSION`].
pub const SIMPLECRAWLER_VERSION: &str = "1.1.9";
/// The crates.io version of `spider` [`spider`] is built with, pinned in
/// `harness/site/crawlers/spider/Cargo.toml` (and its own `Cargo.lock`).
pub const SPIDER_VERSION: &str = "2.53.9";

/// How many sites a crawler run in batches crawls in one process ([`Crawler::with_batch`]):
/// the MCP fetch server and Crawlee start a runtime (and an MCP session, or Crawlee's
/// storage and pools) that costs about a second of CPU, paid once per batch.
pub const BATCH_SITES: usize = 64;
/// How much longer a batch may run for each site after the first (a crawler that exits
/// by itself never waits for it; on a loaded machine a batch of 50 sites gets 64 s, not
/// the 15 s of one).
pub const PER_SITE: Duration = Duration::from_secs(1);

/// The MCP client [`mcp_fetch`] runs, in this crate's sources.
pub const MCP_FETCH_CLIENT: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/crawlers/mcp_fetch_client.py");
/// The Crawlee for Python script [`crawlee_python`] runs, in this crate's sources.
pub const CRAWLEE_PYTHON_SCRIPT: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/crawlers/crawlee_crawler.py");
/// The trafilatura spider script [`trafilatura`] runs, in this crate's sources.
pub const TRAFILATURA_SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/crawlers/trafilatura_crawler.py"
);
/// The Crawlee for JavaScript script [`crawlee_js`] runs, in this crate's sources.
pub const CRAWLEE_JS_SCRIPT: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/crawlers/crawlee_crawler.js");
/// The simplecrawler script [`simplecrawler`] runs, in this crate's sources.
pub const SIMPLECRAWLER_SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/crawlers/simplecrawler_crawler.js"
);

/// The venv a PyPI crawler is installed in: `crawlers/{name}-venv` in [`state_dir`]
/// (`scrapy`, `mcp-fetch`, `crawlee`).
pub fn crawler_venv(environment: &Environment, name: &str) -> PathBuf {
    state_dir(environment).join(format!("crawlers/{name}-venv"))
}

/// The `node_modules` the npm crawlers are installed in: `crawlers/node/node_modules` in
/// [`state_dir`].
pub fn crawler_node_modules(environment: &Environment) -> PathBuf {
    state_dir(environment).join("crawlers/node/node_modules")
}

/// The spider crawler's binary: `crawlers/spider-crawler` in [`state_dir`].
pub fn spider_binary(environment: &Environment) -> PathBuf {
    state_dir(environment).join("crawlers/spider-crawler")
}

/// GNU Wget2, recursive (Debian package `wget2`, pinned at [`WGET2_VERSION`]).
///
/// `wget2 --no-config -r -l 2 -nd -np -nv --robots=on -U {agent} -P {workdir} --tries=1
/// --timeout=5 --no-proxy --max-threads=2 {start_url}`: the options of [`super::wget`]
/// (wget2 takes wget's), two download threads (default 5). Before the first page of a
/// host, wget2 requests `/robots.txt` and skips each URL its parser forbids ("not
/// followed (disallowed by robots.txt)"). `-U` sets the `User-Agent` header only.
pub fn wget2() -> Crawler {
    Crawler::new(
        "wget2",
        wget_command("wget2", &["--robots=on"], &["--max-threads=2"]),
    )
    .with_env("HOME", "{workdir}")
    .with_time_limit(Duration::from_secs(10))
    .with_package(Package::apt("wget2", WGET2_VERSION))
}

/// The MCP fetch server (PyPI `mcp-server-fetch`, pinned at [`MCP_FETCH_VERSION`]), the
/// Model Context Protocol server AI assistants fetch web pages through, driven by the
/// small client [`MCP_FETCH_CLIENT`] from its own venv ([`crawler_venv`] `mcp-fetch`).
///
/// `{venv}/bin/python mcp_fetch_client.py {venv}/bin/mcp-server-fetch {agent} {start_urls}`:
/// the client (standard library only) starts `mcp-server-fetch --user-agent {agent}
/// --allow-private-ips` on stdio (the server refuses loopback addresses without the flag), initializes the session and
/// calls the `fetch` tool (`raw: true`) on the start page, then once on each same-origin
/// page it links: what a model does when it reads a page and follows its links. It runs
/// in batches ([`BATCH_SITES`] sites, one session, eight sites at a time).
///
/// Before every tool call the server requests the origin's `/robots.txt` again, with the
/// agent as `User-Agent` (`check_may_autonomously_fetch_url`): a 401 or 403 refuses the
/// call, another 4xx allows it, a failed request refuses it; any other status's body
/// (also a 5xx's) is parsed with Protego and the URL refused when
/// `can_fetch(url, agent)` says so. Its product token is the agent given with
/// `--user-agent` (the server's own default is `ModelContextProtocol/1.0 (Autonomous;
/// ...)`).
pub fn mcp_fetch(environment: &Environment) -> Crawler {
    let venv = crawler_venv(environment, "mcp-fetch");
    let server = venv.join("bin/mcp-server-fetch");
    let server_path = server.to_string_lossy().into_owned();
    python_crawler(&venv, ("mcp-fetch", MCP_FETCH_CLIENT), &[server_path])
        .with_time_limit(Duration::from_secs(30))
        .with_requirement(server)
        .with_version(MCP_FETCH_VERSION)
}

/// Crawlee for Python (PyPI `crawlee`, pinned at [`CRAWLEE_PYTHON_VERSION`]), running
/// the script [`CRAWLEE_PYTHON_SCRIPT`] from its own venv ([`crawler_venv`] `crawlee`).
///
/// `{venv}/bin/python crawlee_crawler.py {agent} {start_urls}`: a `BeautifulSoupCrawler`
/// (plain HTTP, no browser) with `respect_robots_txt_file=True`, following every link on
/// the start page's hostname to depth 1 below it, no retries, 5 s per request, its
/// default HTTP client (`ImpitHttpClient`) sending the agent as `User-Agent`; in batches
/// of [`BATCH_SITES`] sites, eight requests at a time.
///
/// Before the first request to an origin Crawlee fetches `/robots.txt`
/// (`RobotsTxtFile.load`: a 4xx allows everything, a 5xx disallows everything, a failed
/// request allows everything) and parses it with Protego. It always asks for the group
/// `*` (`RobotsTxtFile.is_allowed(url)`, whose `user_agent` defaults to `*`, and the
/// crawler passes none): it obeys neither the token it is given nor a name of its own.
pub fn crawlee_python(environment: &Environment) -> Crawler {
    let venv = crawler_venv(environment, "crawlee");
    python_crawler(&venv, ("crawlee-python", CRAWLEE_PYTHON_SCRIPT), &[])
        .with_env("CRAWLEE_STORAGE_DIR", "{workdir}/storage")
        .with_time_limit(Duration::from_secs(15))
        .with_requirement(venv.join("bin/crawlee"))
        .with_version(CRAWLEE_PYTHON_VERSION)
}

/// trafilatura's spider (PyPI `trafilatura`, pinned at [`TRAFILATURA_VERSION`]), the
/// crawler of the text-extraction library many LLM data pipelines gather web pages with,
/// running [`TRAFILATURA_SCRIPT`] from its own venv ([`crawler_venv`] `trafilatura`).
///
/// `{venv}/bin/python trafilatura_crawler.py {agent} {start_urls}`: for each site,
/// `trafilatura.spider.focused_crawler` with trafilatura's own configuration except
/// `USER_AGENTS` (the agent: the `User-Agent` of every request, `/robots.txt`'s too),
/// `DOWNLOAD_TIMEOUT` 5 s, `SLEEP_TIME` 0 and `SSRF_PROTECTION` off (on, it refuses
/// loopback addresses); in batches of [`BATCH_SITES`] sites, eight at a time. One change
/// to its link filter: courlan refuses every link whose host is an IP address with a
/// port, as every reptest site's is, so the script checks such a link without its port
/// (the script's docstring says how); robots.txt handling is untouched.
///
/// Before the start page it fetches `/robots.txt` (`spider.get_rules`): a 200 is parsed
/// with the standard library's `urllib.robotparser`; anything else (a 4xx, a 5xx after
/// urllib3's two retries, a failed connection, more than two redirects) leaves it without
/// rules, and it fetches every link. It asks for the group `*` whatever the agent
/// (`rules.can_fetch("*", link)`): it obeys neither the token it is given nor a name of
/// its own.
pub fn trafilatura(environment: &Environment) -> Crawler {
    let venv = crawler_venv(environment, "trafilatura");
    python_crawler(&venv, ("trafilatura", TRAFILATURA_SCRIPT), &[])
        .with_time_limit(Duration::from_secs(15))
        .with_requirement(venv.join("bin/trafilatura"))
        .with_version(TRAFILATURA_VERSION)
}

/// A crawler named `name` that is the Python script `script` of this crate, run by the
/// Python of `venv` (its own, [`crawler_venv`]) in batches of [`BATCH_SITES`] sites:
/// `{venv}/bin/python SCRIPT ARGS... {agent} {start_urls}`, `HOME` the work directory,
/// no `__pycache__` written.
fn python_crawler(venv: &Path, (name, script): (&str, &str), args: &[String]) -> Crawler {
    let python = venv.join("bin/python").to_string_lossy().into_owned();
    let head = [python, script.to_owned()];
    let tail = ["{agent}".to_owned(), "{start_urls}".to_owned()];
    Crawler::new(
        name,
        head.into_iter().chain(args.iter().cloned()).chain(tail),
    )
    .with_env("HOME", "{workdir}")
    .with_env("PYTHONDONTWRITEBYTECODE", "1")
    .with_batch(BATCH_SITES, PER_SITE)
}

/// A crawler that is a Node script of this crate with its npm package in
/// [`crawler_node_modules`], run in batches of [`BATCH_SITES`] sites:
/// `node SCRIPT {agent} {start_urls}`, `HOME` the work directory.
fn node_crawler(environment: &Environment, name: &str, script: &str, package: &str) -> Crawler {
    let modules = crawler_node_modules(environment);
    Crawler::new(name, ["node", script, "{agent}", "{start_urls}"])
        .with_env("HOME", "{workdir}")
        .with_env("NODE_PATH", modules.to_string_lossy())
        .with_time_limit(Duration::from_secs(15))
        .with_requirement(modules.join(package).join("package.json"))
        .with_batch(BATCH_SITES, PER_SITE)
}

/// Crawlee for JavaScript (npm `@crawlee/cheerio`, Crawlee's plain-HTTP crawler, pinned
/// at [`CRAWLEE_JS_VERSION`]; no browser package), running [`CRAWLEE_JS_SCRIPT`] with
/// Node.
///
/// `node crawlee_crawler.js {agent} {start_urls}` (`NODE_PATH` the pinned
/// [`crawler_node_modules`]), in batches of [`BATCH_SITES`] sites, eight requests at a
/// time: a `CheerioCrawler` with `respectRobotsTxtFile: { userAgent:
/// agent }` (the documented way to name the token; `true` asks for `*`), following every
/// link on the start page's hostname to depth 1 below it, no retries, 5 s per request, in
/// memory only. The agent is the `User-Agent` of its page requests (a
/// `preNavigationHooks` hook); `/robots.txt` itself is requested by `RobotsTxtFile.load`
/// with got-scraping's generated browser headers (a `Mozilla/5.0 ...` `User-Agent`), not
/// the agent. It parses the body with `robots-parser` whatever the status, except that a
/// 404 allows everything, and matches groups for the token it is given.
pub fn crawlee_js(environment: &Environment) -> Crawler {
    node_crawler(
        environment,
        "crawlee-js",
        CRAWLEE_JS_SCRIPT,
        "@crawlee/cheerio",
    )
    .with_version(CRAWLEE_JS_VERSION)
}

/// simplecrawler (npm `simplecrawler`, pinned at [`SIMPLECRAWLER_VERSION`]), running
/// [`SIMPLECRAWLER_SCRIPT`] with Node.
///
/// `node simplecrawler_crawler.js {agent} {start_urls}` (`NODE_PATH` the pinned
/// [`crawler_node_modules`]; in batches of [`BATCH_SITES`] sites, a crawler per site, all
/// at once, in one process): `respectRobotsTxt` (its default, made explicit), the agent
/// as `userAgent` (the `User-Agent` of every request, `/robots.txt`'s too, and the name
/// it asks `robots-parser` about: it obeys the token it is given), depth 2 on the start
/// page's host, 5 s per request. Before the first request to a host it fetches
/// `/robots.txt`; a status other than 2xx or a redirect it cannot follow is a
/// `robotstxterror`, after which it crawls as if there were no file.
pub fn simplecrawler(environment: &Environment) -> Crawler {
    node_crawler(
        environment,
        "simplecrawler",
        SIMPLECRAWLER_SCRIPT,
        "simplecrawler",
    )
    .with_version(SIMPLECRAWLER_VERSION)
}

/// Not in [`super::implementations`] yet, nor built by setup: the program builds 270
/// crates, which did not finish on the shared 2-core machine of the session that wrote
/// it; `cargo build --release --manifest-path harness/site/crawlers/spider/Cargo.toml`
/// builds it (then copy `reptest-spider` to [`spider_binary`]).
///
/// A small program with the `spider` crate's `Website` crawler
/// (`harness/site/crawlers/spider/src/main.rs`, `spider` pinned at [`SPIDER_VERSION`]
/// with its default features off), to be built into [`spider_binary`].
///
/// `spider-crawler {start_url} {agent}`: `with_respect_robots_txt(true)`,
/// `with_user_agent(agent)` (its `User-Agent`, and the name its robots.txt parser is asked
/// about: it obeys the token it is given), depth 2, no subdomains, a 5 s request timeout,
/// no retries. Before crawling it fetches `/robots.txt` (`RobotFileParser::read`: 401 and
/// 403 disallow everything, another 4xx allows everything).
pub fn spider(environment: &Environment) -> Crawler {
    Crawler::new(
        "spider",
        [
            spider_binary(environment).to_string_lossy().into_owned(),
            "{start_url}".to_owned(),
            "{agent}".to_owned(),
        ],
    )
    .with_env("HOME", "{workdir}")
    .with_time_limit(Duration::from_secs(10))
    .with_version(SPIDER_VERSION)
}

/// The Debian version of `libwww-perl` (LWP::RobotUA) [`lwp_robotua`] was verified with
/// (bookworm).
pub const LIBWWW_PERL_VERSION: &str = "6.68-1";
/// The Debian version of `linkchecker` [`linkchecker`] was verified with (bookworm).
pub const LINKCHECKER_VERSION: &str = "10.2.1-1";
/// The LWP::RobotUA script [`lwp_robotua`] runs, in this crate's sources.
pub const LWP_ROBOTUA_SCRIPT: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/crawlers/lwp_robotua.pl");

/// libwww-perl's robot user agent, `LWP::RobotUA` (Debian package `libwww-perl`, pinned
/// at [`LIBWWW_PERL_VERSION`]), running [`LWP_ROBOTUA_SCRIPT`] with Perl.
///
/// `perl lwp_robotua.pl {agent} {start_urls}` (in batches of [`BATCH_SITES`] sites, read
/// one after another): a `LWP::RobotUA` with the agent as `agent`
/// (its `User-Agent`, `/robots.txt`'s too), no delay (`delay(0)`: the constructor turns
/// `delay => 0` into its default of one minute), a 5 s timeout; it gets the start page,
/// then each same-origin page it links. Before the first request to a host LWP fetches
/// `/robots.txt` (following redirects) and uses its body only when the response is a
/// success with a text type and holds a `Disallow:` line; anything else (a 4xx, a 5xx, a
/// failed request) is an empty file, which allows everything. `WWW::RobotRules` obeys a
/// group whose name is a case-insensitive substring of the agent (`is_me`), else `*`: it
/// obeys the token it is given.
pub fn lwp_robotua() -> Crawler {
    Crawler::new(
        "lwp-robotua",
        ["perl", LWP_ROBOTUA_SCRIPT, "{agent}", "{start_urls}"],
    )
    .with_env("HOME", "{workdir}")
    .with_time_limit(Duration::from_secs(10))
    .with_batch(BATCH_SITES, PER_SITE)
    .with_requirement("/usr/share/perl5/LWP/RobotUA.pm")
    .with_package(Package::apt("libwww-perl", LIBWWW_PERL_VERSION))
}

/// LinkChecker (Debian package `linkchecker`, pinned at [`LINKCHECKER_VERSION`]), which
/// checks a site's links recursively and obeys robots.txt.
///
/// `linkchecker --no-status -r 2 --user-agent {agent} --timeout 5 -t 2 -o none
/// {start_urls}`: recursion depth 2 (the start page and what it links), internal URLs
/// only (its default: those under a start page), in batches of [`BATCH_SITES`] sites,
/// the agent as the `User-Agent` of its page requests, a 5 s timeout, two threads, no
/// output file. `HOME` is the work directory, so no `~/.linkchecker`
/// configuration applies. Before a host's first URL it fetches `/robots.txt` with its own
/// `User-Agent` (`Mozilla/5.0 (compatible; LinkChecker/10.2.1; ...)`), not the agent,
/// and then matches groups for the agent it is given.
pub fn linkchecker() -> Crawler {
    Crawler::new(
        "linkchecker",
        [
            "linkchecker",
            "--no-status",
            "-r",
            "2",
            "--user-agent",
            "{agent}",
            "--timeout",
            "5",
            "-t",
            "2",
            "-o",
            "none",
            "{start_urls}",
        ],
    )
    .with_env("HOME", "{workdir}")
    .with_time_limit(Duration::from_secs(15))
    .with_batch(BATCH_SITES, PER_SITE)
    .with_package(Package::apt("linkchecker", LINKCHECKER_VERSION))
}
