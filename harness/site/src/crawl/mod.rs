//! Real crawlers, judged as black boxes.
//!
//! A [`Crawler`] is a command-line template. For one scenario and one product token,
//! [`Crawler::run`] starts a [`Site`](crate::Site) whose start page links every queried
//! page (the scenario's `pages`), starts the crawler against that start page with the
//! token as its agent, waits for it to finish (or ends it at its time limit), stops the
//! site, and judges from the request log alone: a queried page the crawler fetched (GET,
//! whatever the status) is [`Verdict::Allowed`], one it did not fetch is
//! [`Verdict::Disallowed`]. The [`CrawlReport`] also says whether it requested
//! `/robots.txt` at all, every request it made, how it exited, and the last lines of its
//! output.
//!
//! The verdicts are observations, not judgements against the RFC; comparing them with
//! the expected ones (for a 2xx, §2.3.1.1: "MUST follow the parseable rules"; for a 4xx,
//! §2.3.1.3: "MAY access any resources on the server"; for a 5xx or an unreachable
//! server, §2.3.1.4: "MUST assume complete disallow"; after more than five redirects,
//! §2.3.1.2: "MAY assume that the robots.txt file is unavailable") is the caller's.
//!
//! # Processes
//!
//! The crawler runs as the leader of a process group of its own, with stdin closed, in a
//! fresh work directory, with the proxy variables removed from its environment. At its
//! time limit the whole group gets SIGTERM, and SIGKILL 2 s later; processes left behind
//! by a leader that exited are ended the same way. A guard ends the group when a running
//! [`Crawl`] is dropped, also while unwinding from a panic, so no process of a run
//! outlives it. A process that leaves the group (`setsid`, or a daemon that double-forks
//! into a new session) escapes this; none of the crawlers defined here does. A signal that
//! kills reptest itself runs no destructor: a binary should call [`kill_running`] from its
//! Ctrl-C handler.
//!
//! Output is read on two threads that keep at most the last 20 lines, each cut at about
//! 300 bytes, and discard the rest, so a crawler flooding its output costs no memory.
//!
//! # Crawlers
//!
//! [`wget`] (GNU Wget, `-r`), [`httrack`], each pinned at a Debian version
//! ([`Package`]), [`scrapy`] (PyPI, [`SCRAPY_VERSION`], in its own venv), [`colly`] (a Go
//! program built with Colly [`COLLY_VERSION`]), and [`ignore_robots_fixture`], a script that ignores robots.txt (the
//! control). Beside them the crawlers and AI-agent fetchers of [`fetchers`]: [`wget2`]
//! (Debian), the MCP fetch server [`mcp_fetch`] and [`crawlee_python`] (PyPI),
//! [`crawlee_js`] and [`simplecrawler`] (npm), [`trafilatura`]'s spider (PyPI),
//! [`spider`] (crates.io), and [`lwp_robotua`] (Perl) and [`linkchecker`] (Debian).
//!
//! # Batches
//!
//! A crawler whose process is costly to start takes many sites at once
//! ([`Crawler::with_batch`]): [`Crawler::run_many`] starts one site per scenario, each on
//! an origin of its own, gives the process every start page (`{start_urls}`), and judges
//! each site from its own request log, exactly as a run of one.
//!
//! ```
//! use reptest_site::{crawl::{Crawler, Verdict}, Scenario};
//!
//! let scenario = Scenario::new(200, "User-agent: *\nDisallow: /private\n")
//!     .with_pages(["/private", "/public"]);
//! // A "crawler" that only names its start page on stderr, and fetches nothing.
//! let echo = Crawler::new("echo", ["sh", "-c", r#"echo "start: $0" >&2"#, "{start_url}"]);
//! let report = echo.run(&scenario, "ReptestBot")?;
//! assert_eq!(report.verdict("/public"), Some(Verdict::Disallowed));
//! assert!(!report.fetched_robots && report.request_count() == 0);
//! assert!(report.stderr_tail[0].starts_with("start: http://127."));
//! # Ok::<(), reptest_site::Error>(())
//! ```

mod capture;
mod crawler;
pub mod fetchers;
mod group;
mod implementation;
mod judge;
mod pinned;
mod run;

pub use crawler::{Crawler, Package};
pub use fetchers::{
    crawlee_js, crawlee_python, linkchecker, lwp_robotua, mcp_fetch, simplecrawler, spider,
    trafilatura, wget2, CRAWLEE_JS_VERSION, CRAWLEE_PYTHON_VERSION, LIBWWW_PERL_VERSION,
    LINKCHECKER_VERSION, MCP_FETCH_VERSION, SIMPLECRAWLER_VERSION, SPIDER_VERSION,
    TRAFILATURA_VERSION, WGET2_VERSION,
};
pub use group::kill_running;
pub(crate) use group::TERM_GRACE;
pub use implementation::{CrawlerImplementation, PLAIN_CASES};
pub use judge::{PageVerdict, Verdict};
pub use pinned::{
    colly, colly_binary, httrack, ignore_robots_fixture, scrapy, scrapy_venv, state_dir, wget,
    COLLY_VERSION, HTTRACK_VERSION, IGNORE_ROBOTS_SCRIPT, SCRAPY_SPIDER, SCRAPY_VERSION,
    WGET_VERSION,
};
pub use run::{Crawl, CrawlReport, Exit};

use reptest_core::Environment;

/// The real crawlers reptest judges, as implementations (`reptest impls` lists them with
/// kind `crawler`): `crawler-wget`, `crawler-httrack` and `crawler-wget2` (C),
/// `crawler-scrapy` and `crawler-linkchecker` (Python; LinkChecker from Debian),
/// `crawler-colly` (Go), `crawler-simplecrawler` (JavaScript) and `crawler-lwp-robotua`
/// (Perl), and the AI-agent fetchers and crawlers run in batches (many cases' sites in
/// one process, [`Crawler::with_batch`]): `crawler-mcp-fetch`, `crawler-crawlee-python`
/// and `crawler-trafilatura` (Python) and `crawler-crawlee-js` (JavaScript); installed in
/// the state folder of `environment` and looked for on its search path.
///
/// Defined but not listed: [`spider`], which setup does not build (its 270 crates), see
/// [`fetchers::spider`].
pub fn implementations(environment: &Environment) -> Vec<CrawlerImplementation> {
    let crawler = |name: &str, language: &str, crawler: Crawler| {
        CrawlerImplementation::new(name, language, crawler, environment)
    };
    vec![
        crawler("crawler-wget", "C", wget()),
        crawler("crawler-httrack", "C", httrack()),
        crawler("crawler-scrapy", "Python", scrapy(environment)),
        crawler("crawler-colly", "Go", colly(environment)),
        crawler("crawler-wget2", "C", wget2()),
        crawler(
            "crawler-simplecrawler",
            "JavaScript",
            simplecrawler(environment),
        ),
        crawler("crawler-lwp-robotua", "Perl", lwp_robotua()),
        crawler("crawler-linkchecker", "Python", linkchecker()),
        crawler("crawler-mcp-fetch", "Python", mcp_fetch(environment)),
        crawler(
            "crawler-crawlee-python",
            "Python",
            crawlee_python(environment),
        ),
        crawler("crawler-crawlee-js", "JavaScript", crawlee_js(environment)),
        crawler("crawler-trafilatura", "Python", trafilatura(environment)),
    ]
}
