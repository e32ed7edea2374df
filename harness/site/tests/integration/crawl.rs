//! Real crawlers judged as black boxes on the loopback site, the control that ignores
//! robots.txt, and the process discipline: no process outlives a run, output is capped.
//!
//! The real crawlers (wget, httrack, Scrapy, Colly) must be installed: a test FAILS with
//! the install command when one is missing, unless `REPTEST_SKIP_CRAWLERS=1` is set.

#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};

use crate::procs;

use procs::group_running;
use reptest_site::crawl::{self, CrawlReport, Crawler, Exit, Verdict};
use reptest_site::Scenario;

/// What the tests' own environment says (REPTEST_STATE, PATH): the test reads it, as the
/// command line does for reptest.
fn environment() -> reptest_core::Environment {
    reptest_core::Environment::from_lookup(|name| std::env::var_os(name))
}

/// The product token every crawler is given.
const AGENT: &str = "ReptestBot";
/// The queried pages: two under the disallowed `/private/`, two not.
const PAGES: [&str; 4] = [
    "/public/a.html",
    "/private/b.html",
    "/private/c.html",
    "/open.html",
];
const DISALLOW_PRIVATE: &str = "User-agent: *\nDisallow: /private/\n";

fn scenario(status: u16) -> Scenario {
    Scenario::new(status, DISALLOW_PRIVATE).with_pages(PAGES)
}

/// What RFC 9309 §2.3.1.1 expects for `DISALLOW_PRIVATE` served with a 200.
fn expected_for_200() -> Vec<(&'static str, Verdict)> {
    PAGES
        .iter()
        .map(|&page| (page, Verdict::of(!page.starts_with("/private/"))))
        .collect()
}

/// Whether `crawler` can run here; if not, fails with its install command unless
/// `REPTEST_SKIP_CRAWLERS=1`.
fn require(crawler: &Crawler) -> bool {
    if crawler.is_installed(environment().search_path()) {
        return true;
    }
    let install = crawler.package().map_or_else(
        || "bash harness/external/setup crawlers".to_owned(),
        |package| package.install_command(),
    );
    if std::env::var("REPTEST_SKIP_CRAWLERS").as_deref() == Ok("1") {
        eprintln!(
            "skipping {}: not installed (REPTEST_SKIP_CRAWLERS=1); `{install}` installs it",
            crawler.name()
        );
        return false;
    }
    panic!(
        "{} is not installed: run `{install}` (or set REPTEST_SKIP_CRAWLERS=1 to skip the real \
         crawlers)",
        crawler.name()
    );
}

/// The installed version, for assertion messages.
fn version(crawler: &Crawler) -> String {
    crawler
        .package()
        .and_then(|package| package.installed_version())
        .unwrap_or_else(|| "unknown version".to_owned())
}

/// The verdicts as (path, verdict) pairs.
fn verdicts(report: &CrawlReport) -> Vec<(&str, Verdict)> {
    report
        .verdicts
        .iter()
        .map(|page| (page.path.as_str(), page.verdict))
        .collect()
}

/// Every request for /robots.txt presented the agent.
fn robots_requests_carry_the_agent(report: &CrawlReport) -> bool {
    let robots: Vec<_> = report
        .requests
        .iter()
        .filter(|request| request.path == "/robots.txt")
        .collect();
    !robots.is_empty()
        && robots.iter().all(|request| {
            request
                .user_agent
                .as_deref()
                .is_some_and(|agent| agent.contains(AGENT))
        })
}

#[test]
fn the_fixture_that_ignores_robots_txt_is_judged_wrong_exactly_on_the_disallowed_pages() {
    let fixture = crawl::ignore_robots_fixture();
    assert!(
        fixture.is_installed(environment().search_path()),
        "python3 is needed for the fixture"
    );
    let report = fixture.run(&scenario(200), AGENT).unwrap();
    assert!(report.exit.success(), "{report:#?}");
    assert!(!report.fetched_robots, "{report:#?}");
    // It fetched everything: all four allowed.
    assert_eq!(
        verdicts(&report),
        PAGES.map(|page| (page, Verdict::Allowed)),
        "{report:#?}"
    );
    // So it differs from the expected verdicts on exactly the two private pages.
    assert_eq!(
        report.mismatches(expected_for_200()),
        ["/private/b.html", "/private/c.html"]
    );
    assert_eq!(report.request_count(), 5, "{report:#?}");
    assert!(report.other_paths.is_empty());
    assert!(report
        .requests
        .iter()
        .all(|request| request.user_agent.as_deref() == Some(AGENT)));
}

#[test]
fn wget_obeys_a_disallow_and_presents_the_agent() {
    let wget = crawl::wget();
    if !require(&wget) {
        return;
    }
    let report = wget.run(&scenario(200), AGENT).unwrap();
    let version = version(&wget);
    assert!(report.fetched_robots, "wget {version}: {report:#?}");
    assert!(robots_requests_carry_the_agent(&report), "{report:#?}");
    assert_eq!(
        verdicts(&report),
        expected_for_200(),
        "wget {version}: {report:#?}"
    );
    assert!(report.mismatches(expected_for_200()).is_empty());
    assert!(!report.timed_out && report.exit.success(), "{report:#?}");
}

#[test]
fn httrack_obeys_a_disallow_and_presents_the_agent() {
    let httrack = crawl::httrack();
    if !require(&httrack) {
        return;
    }
    let report = httrack.run(&scenario(200), AGENT).unwrap();
    let version = version(&httrack);
    assert!(report.fetched_robots, "httrack {version}: {report:#?}");
    assert!(robots_requests_carry_the_agent(&report), "{report:#?}");
    assert_eq!(
        verdicts(&report),
        expected_for_200(),
        "httrack {version}: {report:#?}"
    );
    assert!(!report.timed_out && report.exit.success(), "{report:#?}");
}

// Recorded facts about the pinned versions (crawl::WGET_VERSION, crawl::HTTRACK_VERSION):
// what each does when the robots.txt answers 404 or 503 (with the disallowing body). These
// assert observed behaviour, not the RFC's verdicts; judging against §2.3.1.3 ("MAY access
// any resources") and §2.3.1.4 ("MUST assume complete disallow") happens elsewhere.

/// Runs `crawler` on `DISALLOW_PRIVATE` served with `status`, checks it requested the
/// robots.txt, and returns its verdicts.
fn observe(crawler: &Crawler, status: u16) -> Option<Vec<(String, Verdict)>> {
    if !require(crawler) {
        return None;
    }
    let report = crawler.run(&scenario(status), AGENT).unwrap();
    let version = version(crawler);
    assert!(
        report.fetched_robots,
        "{} {version} on {status}: {report:#?}",
        crawler.name()
    );
    assert!(!report.timed_out, "{report:#?}");
    eprintln!(
        "{} {version}, robots.txt {status}: {:?}",
        crawler.name(),
        verdicts(&report)
    );
    Some(
        report
            .verdicts
            .into_iter()
            .map(|page| (page.path, page.verdict))
            .collect(),
    )
}

fn all_allowed() -> Vec<(String, Verdict)> {
    PAGES
        .iter()
        .map(|&page| (page.to_owned(), Verdict::Allowed))
        .collect()
}

#[test]
fn recorded_wget_on_a_404_robots_txt_fetches_every_page() {
    // wget 1.21.3 treats a 404 robots.txt as no rules (and ignores the 404's body).
    if let Some(verdicts) = observe(&crawl::wget(), 404) {
        assert_eq!(verdicts, all_allowed());
    }
}

#[test]
fn recorded_wget_on_a_503_robots_txt_fetches_every_page() {
    // wget 1.21.3 treats a 503 robots.txt like a missing one: it fetches everything, where
    // §2.3.1.4 says "MUST assume complete disallow".
    if let Some(verdicts) = observe(&crawl::wget(), 503) {
        assert_eq!(verdicts, all_allowed());
    }
}

#[test]
fn recorded_httrack_on_a_404_robots_txt_fetches_every_page() {
    // httrack 3.49.4 treats a 404 robots.txt as no rules.
    if let Some(verdicts) = observe(&crawl::httrack(), 404) {
        assert_eq!(verdicts, all_allowed());
    }
}

#[test]
fn recorded_httrack_on_a_503_robots_txt_fetches_every_page() {
    // httrack 3.49.4 treats a 503 robots.txt like a missing one: it fetches everything.
    if let Some(verdicts) = observe(&crawl::httrack(), 503) {
        assert_eq!(verdicts, all_allowed());
    }
}

#[test]
fn a_crawler_past_its_time_limit_is_killed_with_its_whole_group() {
    let sleeper = Crawler::new("sleeper", ["sh", "-c", "sleep 1000 & sleep 1000"])
        .with_time_limit(Duration::from_secs(1));
    let started = Instant::now();
    let report = sleeper.run(&scenario(200), AGENT).unwrap();
    assert!(report.timed_out, "{report:#?}");
    assert_eq!(report.exit, Exit::Signal(15), "{report:#?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(!group_running(report.process_group));
    assert_eq!(report.verdicts.len(), PAGES.len());
    assert!(report
        .verdicts
        .iter()
        .all(|v| v.verdict == Verdict::Disallowed));
}

#[test]
fn a_group_that_ignores_sigterm_gets_sigkill_after_two_seconds() {
    // An ignored signal stays ignored across exec: both the shell and its sleep ignore it.
    let stubborn = Crawler::new(
        "stubborn",
        ["sh", "-c", "trap '' TERM; sleep 1000 & sleep 1000"],
    )
    .with_time_limit(Duration::from_millis(300));
    let started = Instant::now();
    let report = stubborn.run(&scenario(200), AGENT).unwrap();
    let took = started.elapsed();
    assert!(report.timed_out);
    assert_eq!(report.exit, Exit::Signal(9), "{report:#?}");
    assert!(
        took >= Duration::from_secs(2) && took < Duration::from_secs(6),
        "{took:?}"
    );
    assert!(!group_running(report.process_group));
}

#[test]
fn processes_left_behind_by_a_leader_that_exited_are_ended() {
    let leaver = Crawler::new("leaver", ["sh", "-c", "sleep 1000 & echo left"]);
    let report = leaver.run(&scenario(200), AGENT).unwrap();
    assert!(!report.timed_out);
    assert_eq!(report.exit, Exit::Code(0));
    assert!(report.stragglers_killed, "{report:#?}");
    assert_eq!(report.stdout_tail, ["left"]);
    assert!(!group_running(report.process_group));
}

#[test]
fn a_dropped_crawl_ends_its_group_also_when_the_caller_panics() {
    let sleeper = Crawler::new("sleeper", ["sh", "-c", "sleep 1000 & sleep 1000"]);
    let (sender, receiver) = std::sync::mpsc::channel();
    let unwound = std::panic::catch_unwind(move || {
        let crawl = sleeper.start(&scenario(200), AGENT).unwrap();
        sender.send(crawl.process_group()).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        panic!("the caller panics while the crawler runs");
    });
    assert!(unwound.is_err());
    let pgid = receiver.recv().unwrap();
    assert!(!group_running(pgid));
}

#[test]
fn a_crawler_flooding_its_output_is_capped() {
    let flood = Crawler::new("yes", ["yes"]).with_time_limit(Duration::from_secs(1));
    let report = flood.run(&scenario(200), AGENT).unwrap();
    assert!(report.timed_out);
    assert!(report.stdout_bytes > 1_000_000, "{}", report.stdout_bytes);
    assert_eq!(report.stdout_tail.len(), 20);
    assert!(report.stdout_tail.iter().all(|line| line == "y"));
    assert!(!group_running(report.process_group));

    // One endless line: kept cut at 300 bytes plus a marker.
    let line = Crawler::new("line", ["sh", "-c", "tr '\\0' x < /dev/zero >&2"])
        .with_time_limit(Duration::from_secs(1));
    let report = line.run(&scenario(200), AGENT).unwrap();
    assert!(report.stderr_bytes > 1_000_000, "{}", report.stderr_bytes);
    assert_eq!(report.stderr_tail.len(), 1);
    assert_eq!(report.stderr_tail[0], format!("{}…", "x".repeat(300)));
    assert!(!group_running(report.process_group));
}

#[test]
fn the_crawler_gets_its_placeholders_environment_and_work_directory() {
    let probe = Crawler::new(
        "probe",
        [
            "sh",
            "-c",
            r#"echo "$0|$1|$PWD|$OUT|${http_proxy-unset}"; touch "$OUT/file"; exit 3"#,
            "{start_url}",
            "{agent}",
        ],
    )
    .with_env("OUT", "{workdir}");
    let crawl = probe.start(&scenario(200), AGENT).unwrap();
    let (origin, workdir) = (crawl.origin().to_owned(), crawl.workdir().to_owned());
    let report = crawl.wait();
    assert_eq!(report.exit, Exit::Code(3));
    let workdir = workdir.to_str().unwrap();
    assert_eq!(
        report.stdout_tail,
        [format!(
            "{origin}{}|{AGENT}|{workdir}|{workdir}|unset",
            reptest_site::START_PATH
        )]
    );
    assert!(
        !std::path::Path::new(workdir).exists(),
        "the work directory is removed"
    );
    assert!(report.stderr_tail.is_empty());
}

#[test]
fn setup_errors_are_errors_and_crawler_behaviour_never_is() {
    let missing = Crawler::new("missing", ["reptest-no-such-crawler", "{start_url}"]);
    assert!(!missing.is_installed(environment().search_path()));
    let error = missing.run(&scenario(200), AGENT).unwrap_err();
    assert!(error.is_not_installed(), "{error}");
    let error = Crawler::new("typo", ["sh", "{start}"])
        .run(&scenario(200), AGENT)
        .unwrap_err();
    assert!(error.is_invalid_crawler(), "{error}");
    let error = Crawler::new("sh", ["true"])
        .run(&scenario(200), "Bad\nAgent")
        .unwrap_err();
    assert!(error.is_invalid_crawler(), "{error}");
    // A crawler that crashes is a report, not an error.
    let crash = Crawler::new("crash", ["sh", "-c", "kill -SEGV $$"]);
    let report = crash.run(&scenario(200), AGENT).unwrap();
    assert_eq!(report.exit, Exit::Signal(11));
    assert!(!report.timed_out);
}

/// Runs `crawler` (given `AGENT`) on `body` and returns the verdicts for the two private
/// pages.
fn private_verdicts(crawler: &Crawler, body: &str) -> Option<Vec<Verdict>> {
    if !require(crawler) {
        return None;
    }
    let report = crawler
        .run(&Scenario::new(200, body).with_pages(PAGES), AGENT)
        .unwrap();
    assert!(report.fetched_robots, "{body:?}: {report:#?}");
    Some(
        ["/private/b.html", "/private/c.html"]
            .iter()
            .map(|page| report.verdict(page).unwrap())
            .collect(),
    )
}

#[test]
fn recorded_wget_obeys_the_group_named_wget_not_the_agent_it_presents() {
    // wget 1.21.3 matches groups against its own name, "wget" (and `*`), whatever `-U`
    // says: a group for the agent it was given does not apply to it.
    let wget = crawl::wget();
    let Some(named_agent) =
        private_verdicts(&wget, "User-agent: ReptestBot\nDisallow: /private/\n")
    else {
        return;
    };
    assert_eq!(named_agent, [Verdict::Allowed; 2]);
    let named_wget = private_verdicts(&wget, "User-agent: wget\nDisallow: /private/\n");
    assert_eq!(named_wget, Some(vec![Verdict::Disallowed; 2]));
}

#[test]
fn recorded_httrack_obeys_the_group_named_httrack_not_the_agent_it_presents() {
    // httrack 3.49.4 likewise matches groups against "httrack" (and `*`), whatever `-F`
    // says.
    let httrack = crawl::httrack();
    let Some(named_agent) =
        private_verdicts(&httrack, "User-agent: ReptestBot\nDisallow: /private/\n")
    else {
        return;
    };
    assert_eq!(named_agent, [Verdict::Allowed; 2]);
    let named_httrack = private_verdicts(&httrack, "User-agent: httrack\nDisallow: /private/\n");
    assert_eq!(named_httrack, Some(vec![Verdict::Disallowed; 2]));
}

#[test]
fn scrapy_obeys_a_disallow_and_presents_the_agent() {
    let scrapy = crawl::scrapy(&environment());
    if !require(&scrapy) {
        return;
    }
    let report = scrapy.run(&scenario(200), AGENT).unwrap();
    assert!(report.fetched_robots, "scrapy: {report:#?}");
    assert!(robots_requests_carry_the_agent(&report), "{report:#?}");
    assert_eq!(verdicts(&report), expected_for_200(), "scrapy: {report:#?}");
    assert!(report.mismatches(expected_for_200()).is_empty());
    assert!(!report.timed_out && report.exit.success(), "{report:#?}");
}

#[test]
fn colly_obeys_a_disallow_and_presents_the_agent() {
    let colly = crawl::colly(&environment());
    if !require(&colly) {
        return;
    }
    let report = colly.run(&scenario(200), AGENT).unwrap();
    assert!(report.fetched_robots, "colly: {report:#?}");
    assert!(robots_requests_carry_the_agent(&report), "{report:#?}");
    assert_eq!(verdicts(&report), expected_for_200(), "colly: {report:#?}");
    assert!(report.mismatches(expected_for_200()).is_empty());
    assert!(!report.timed_out && report.exit.success(), "{report:#?}");
}

/// The first line `program args...` prints, if it runs.
fn first_line(program: &std::path::Path, args: &[&str]) -> Option<String> {
    let output = std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    Some(text.lines().next().unwrap_or_default().trim().to_owned())
}

#[test]
fn scrapy_and_colly_are_installed_at_their_pinned_versions() {
    let scrapy = crawl::scrapy(&environment());
    if require(&scrapy) {
        let installed = first_line(
            &crawl::scrapy_venv(&environment()).join("bin/scrapy"),
            &["version"],
        );
        assert_eq!(
            installed.as_deref(),
            Some(format!("Scrapy {}", crawl::SCRAPY_VERSION).as_str())
        );
    }
    let colly = crawl::colly(&environment());
    if require(&colly) {
        // The module versions a Go binary was built with, as `go version -m` lists them.
        let binary = crawl::colly_binary(&environment());
        let output = std::process::Command::new("go")
            .args(["version", "-m"])
            .arg(&binary)
            .output()
            .expect("go is needed to read the Colly crawler's build information");
        let info = String::from_utf8_lossy(&output.stdout);
        let colly_line = info
            .lines()
            .find(|line| line.contains("github.com/gocolly/colly/v2"));
        assert!(
            colly_line.is_some_and(|line| line.contains(crawl::COLLY_VERSION)),
            "{info}"
        );
    }
}

// Recorded facts about Scrapy (crawl::SCRAPY_VERSION, Protego 0.7.0) and Colly
// (crawl::COLLY_VERSION, temoto/robotstxt v1.1.2) on a 404 and a 503 robots.txt that
// carries the disallowing body: observed behaviour, not the RFC's verdicts.

/// The verdicts with the two private pages disallowed and the rest allowed.
fn private_disallowed() -> Vec<(String, Verdict)> {
    expected_for_200()
        .into_iter()
        .map(|(page, verdict)| (page.to_owned(), verdict))
        .collect()
}

#[test]
fn recorded_scrapy_on_a_404_robots_txt_obeys_the_body() {
    // Scrapy's RobotsTxtMiddleware parses the body whatever the status: the 404's body
    // disallows /private/, so it keeps out, where §2.3.1.3 lets it access anything.
    if let Some(verdicts) = observe(&crawl::scrapy(&environment()), 404) {
        assert_eq!(verdicts, private_disallowed());
    }
}

#[test]
fn recorded_scrapy_on_a_503_robots_txt_obeys_the_body() {
    // Likewise for a 503 (retries are off): it follows the body's rules and fetches the
    // public pages, where §2.3.1.4 says "MUST assume complete disallow".
    if let Some(verdicts) = observe(&crawl::scrapy(&environment()), 503) {
        assert_eq!(verdicts, private_disallowed());
    }
}

#[test]
fn recorded_colly_on_a_404_robots_txt_fetches_every_page() {
    // temoto/robotstxt's FromResponse: any 4xx allows everything.
    if let Some(verdicts) = observe(&crawl::colly(&environment()), 404) {
        assert_eq!(verdicts, all_allowed());
    }
}

#[test]
fn recorded_colly_on_a_503_robots_txt_fetches_every_page() {
    // temoto/robotstxt's FromResponse makes a 5xx "disallow all", but that flag is read by
    // its TestAgent only: Colly asks FindGroup, which finds no group in it and allows. So
    // Colly fetches everything, where §2.3.1.4 says "MUST assume complete disallow".
    if let Some(verdicts) = observe(&crawl::colly(&environment()), 503) {
        assert_eq!(verdicts, all_allowed());
    }
}

#[test]
fn recorded_scrapy_and_colly_obey_the_group_named_for_the_agent() {
    // Unlike wget and httrack, both match groups against the agent they are given.
    for crawler in [crawl::scrapy(&environment()), crawl::colly(&environment())] {
        let named_agent =
            private_verdicts(&crawler, "User-agent: ReptestBot\nDisallow: /private/\n");
        if let Some(named_agent) = named_agent {
            assert_eq!(named_agent, [Verdict::Disallowed; 2], "{}", crawler.name());
        }
        let other = private_verdicts(&crawler, "User-agent: OtherBot\nDisallow: /private/\n");
        if let Some(other) = other {
            assert_eq!(other, [Verdict::Allowed; 2], "{}", crawler.name());
        }
    }
}
