//! Real crawlers as implementations (RFC 9309 §2.3.1 over HTTP on the loopback site):
//! listed by `reptest impls`, judged on every fetch query that one fetch can show, and
//! none of their processes outlives an interrupted run.
//!
//! wget, wget2, httrack, LWP::RobotUA and LinkChecker come from Debian, Scrapy from
//! PyPI, simplecrawler from npm and Colly from the Go module proxy
//! (`bash harness/external/setup crawlers`); without them these tests fail naming that
//! command, unless built with `REPTEST_SKIP_CRAWLERS=1`, which marks them ignored.
#![cfg(unix)]

use crate::common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const REPTEST: &str = env!("CARGO_BIN_EXE_reptest");

/// Fails unless the crawlers are installed (wget and httrack on PATH; Scrapy's venv and
/// Colly's build are checked by `reptest impls`).
fn require_crawlers() {
    let have = |program: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {program}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    common::require(
        (!(have("wget") && have("httrack")))
            .then(|| "wget or httrack is not installed".to_string()),
        "REPTEST_SKIP_CRAWLERS",
        "bash harness/external/setup crawlers",
    )
}

#[test]
#[cfg_attr(
    reptest_skip_crawlers,
    ignore = "built with REPTEST_SKIP_CRAWLERS=1; install the crawlers with `bash harness/external/setup crawlers`"
)]
fn crawlers_are_listed_available_with_the_crawler_capability() {
    require_crawlers();
    let out = Command::new(REPTEST)
        .args(["impls", "--json", "--recheck"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let crawlers: Vec<&serde_json::Value> = list
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["capabilities"]["crawler"] == true)
        .collect();
    let names: Vec<&str> = crawlers.iter().filter_map(|i| i["name"].as_str()).collect();
    assert_eq!(names, CRAWLERS);
    let languages: std::collections::BTreeSet<&str> = crawlers
        .iter()
        .filter_map(|i| i["language"].as_str())
        .collect();
    assert!(languages.len() >= 5, "{languages:?}");
    for crawler in crawlers {
        assert_eq!(crawler["kind"], "crawler");
        assert_eq!(crawler["available"], true, "{crawler}");
        assert_eq!(crawler["capabilities"]["fetch_outcomes"], true);
        assert_eq!(crawler["capabilities"]["fetches"], true);
    }
}

#[test]
#[cfg_attr(
    reptest_skip_crawlers,
    ignore = "built with REPTEST_SKIP_CRAWLERS=1; install the crawlers with `bash harness/external/setup crawlers`"
)]
fn every_fetch_query_one_fetch_can_show_is_judged_over_http() {
    require_crawlers();
    let dir = tempfile::tempdir().unwrap();
    let matrix = dir.path().join("matrix.tsv");
    let out = Command::new(REPTEST)
        .args(["run", "--impl", "crawlers", "--matrix"])
        .arg(&matrix)
        .output()
        .unwrap();
    // Exit 0: with a set (`--impl crawlers`) only the reference counts.
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
    let tsv = std::fs::read_to_string(&matrix).unwrap();
    let header: Vec<&str> = tsv.lines().next().unwrap().split('\t').collect();
    let outcome = |id: &str, crawler: &str| {
        let column = header.iter().position(|name| *name == crawler)?;
        tsv.lines()
            .find_map(|line| line.strip_prefix(&format!("{id}\t")))
            .and_then(|rest| rest.split('\t').nth(column - 1))
            .map(str::to_string)
    };
    for crawler in CRAWLERS {
        let mut judged = 0;
        for (case, query) in corpus.queries() {
            let got = outcome(&query.id, crawler)
                .unwrap_or_else(|| panic!("{crawler}: {} not in the matrix", query.id));
            match &case.fetch {
                None => assert_eq!(got, "unsupported", "{crawler}: {}: a plain body", query.id),
                // A cached copy older than 24 hours, not fetched again: one fetch cannot
                // show it (a copy with a refetch is served as the refetch, a fresh one as a
                // 200).
                Some(fetch)
                    if fetch.status.is_none()
                        && !fetch.network_error
                        && fetch.cache.as_ref().is_some_and(|c| !c.is_fresh()) =>
                {
                    assert_eq!(got, "unsupported", "{crawler}: {}: a stale copy", query.id)
                }
                // A timeout is no verdict, but not `unsupported`: the case was crawled.
                Some(_) => {
                    assert!(
                        ["allowed", "disallowed", "timeout"].contains(&got.as_str()),
                        "{crawler}: {}: {got}",
                        query.id
                    );
                    judged += usize::from(got != "timeout");
                }
            }
        }
        assert!(
            judged >= 30,
            "{crawler}: only {judged} fetch queries judged"
        );
    }
    // The 5xx family: every one of them but Crawlee for Python crawls on, where
    // §2.3.1.4 says "MUST assume complete disallow" (recorded, as any implementation's
    // failure is); a 200 that disallows everything (`User-agent: *`, `Disallow: /`) is
    // obeyed by all.
    for crawler in CRAWLERS {
        let of = |id| outcome(id, crawler);
        let on_503 = if crawler == "crawler-crawlee-python" {
            "disallowed"
        } else {
            "allowed"
        };
        assert_eq!(
            of("access-503/examplebot:/").as_deref(),
            Some(on_503),
            "{crawler}"
        );
        assert_eq!(
            of("access-200-disallow-all/examplebot:/").as_deref(),
            Some("disallowed"),
            "{crawler}"
        );
    }
}

/// Every crawler `reptest impls` lists, each judged on every fetch query (the crawlers run
/// in batches now: all twelve together take less than the first four did one case at a
/// time).
const CRAWLERS: [&str; 12] = [
    "crawler-wget",
    "crawler-httrack",
    "crawler-scrapy",
    "crawler-colly",
    "crawler-wget2",
    "crawler-simplecrawler",
    "crawler-lwp-robotua",
    "crawler-linkchecker",
    "crawler-mcp-fetch",
    "crawler-crawlee-python",
    "crawler-crawlee-js",
    "crawler-trafilatura",
];

#[test]
#[cfg_attr(
    reptest_skip_crawlers,
    ignore = "built with REPTEST_SKIP_CRAWLERS=1; install the crawlers with `bash harness/external/setup crawlers`"
)]
fn sigint_during_a_crawl_leaves_no_crawler_behind() {
    require_crawlers();
    let tag = format!("crawl-sigint-{}", std::process::id());
    let mut child = Command::new(REPTEST)
        .args(["run", "--impl", "crawler-httrack"])
        .env("REPTEST_TEST_TAG", &tag)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while common::tagged(&tag, child.id()).is_empty() {
        assert!(Instant::now() < deadline, "no crawler started");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    common::interrupt_and_expect_nothing_left(&mut child, &tag, "crawler");
}
