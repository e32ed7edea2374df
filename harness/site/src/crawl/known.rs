//! The real crawlers reptest knows, each pinned at a registry version, and the fixture
//! crawler that ignores robots.txt (the control).
//!
//! More (Scrapy, Colly, ...) are just more command templates here.

use std::time::Duration;

use super::crawler::{Crawler, Package};

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
    Crawler::new(
        "wget",
        [
            "wget",
            "--no-config",
            "-r",
            "-l",
            "2",
            "-nd",
            "-np",
            "-nv",
            "-e",
            "robots=on",
            "-U",
            "{agent}",
            "-P",
            "{workdir}",
            "--tries=1",
            "--timeout=5",
            "--no-proxy",
            "{start_url}",
        ],
    )
    .with_env("HOME", "{workdir}")
    .with_time_limit(Duration::from_secs(10))
    .with_package(Package::apt("wget", WGET_VERSION))
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
