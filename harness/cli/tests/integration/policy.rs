//! `reptest policy`: a site owner's expectations checked against a robots.txt file, or
//! against one fetched from a server on 127.0.0.1 (never any other address).

use crate::{alone, common};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const REPTEST: &str = env!("CARGO_BIN_EXE_reptest");

const POLICY: &str = r#"
[[expect]]
agents = ["*", "Googlebot", "GPTBot"]
allowed = ["/", "/products/"]
disallowed = ["/admin/", "/cart"]
"#;

fn files(name: &str, robots: &str) -> (PathBuf, PathBuf) {
    let dir = common::temp_dir("policy", name);
    std::fs::write(dir.join("robots.txt"), robots).unwrap();
    std::fs::write(dir.join("policy.toml"), POLICY).unwrap();
    (dir.join("robots.txt"), dir.join("policy.toml"))
}

fn policy(robots: &str, expect: &Path, more: &[&str]) -> Output {
    Command::new(REPTEST)
        .args([
            "policy",
            "--robots",
            robots,
            "--expect",
            expect.to_str().unwrap(),
        ])
        .args(["--impl", "reference,rust-robots-txt"])
        .args(more)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
#[cfg_attr(
    not(feature = "crates"),
    ignore = "built without the `crates` feature: no rust-robots-txt to compare with"
)]
fn a_file_that_says_what_the_owner_means_passes() {
    let (robots, expect) = files(
        "pass",
        "User-agent: *\nDisallow: /admin/\nDisallow: /cart\n",
    );
    let out = policy(robots.to_str().unwrap(), &expect, &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("12 expectations, 12 hold") && stdout.contains("PASS"),
        "{stdout}"
    );
}

#[test]
#[cfg_attr(
    not(feature = "crates"),
    ignore = "built without the `crates` feature: no rust-robots-txt to compare with"
)]
fn a_violated_expectation_fails_naming_the_deciding_line_in_every_format() {
    let (robots, expect) = files(
        "fail",
        "User-agent: *\nDisallow: /admin/\nDisallow: /cart\n\nUser-agent: GPTBot\nDisallow: /\nCrawl-dely: 5\n",
    );
    let robots = robots.to_str().unwrap();
    let out = policy(robots, &expect, &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("FAIL allowed    GPTBot") && stdout.contains("line 6: Disallow: /"),
        "{stdout}"
    );
    assert!(stdout.contains("lint warnings:"), "{stdout}");
    let junit = policy(robots, &expect, &["--format", "junit"]);
    let xml = text(&junit.stdout);
    let doc = roxmltree::Document::parse(&xml).expect("valid XML");
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("failure"))
            .count(),
        2,
        "{xml}"
    );
    let github = policy(robots, &expect, &["--format", "github"]);
    let annotations = text(&github.stdout);
    assert_eq!(annotations.matches("::error ").count(), 2, "{annotations}");
    assert!(annotations.contains("line 6: Disallow: /"), "{annotations}");
}

#[test]
fn an_agent_that_is_not_a_product_token_is_an_error() {
    let dir = common::temp_dir("policy", "token");
    std::fs::write(dir.join("robots.txt"), "").unwrap();
    let expect = dir.join("policy.toml");
    std::fs::write(
        &expect,
        "[[expect]]\nagents = [\"Googlebot/2.1\"]\nallowed = [\"/\"]\n",
    )
    .unwrap();
    let out = policy(dir.join("robots.txt").to_str().unwrap(), &expect, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is not a product token"),
        "{}",
        text(&out.stderr)
    );
}

/// Serves `status`, `content_type` and `body` for every request on 127.0.0.1 until
/// `count` requests were answered; returns the robots.txt URL.
fn serve(status: u16, content_type: &'static str, body: &'static str, count: usize) -> String {
    let server = tiny_http::Server::http("127.0.0.1:0").expect("a loopback port");
    let port = server.server_addr().to_ip().expect("an IP address").port();
    std::thread::spawn(move || {
        for _ in 0..count {
            let Ok(Some(request)) = server.recv_timeout(std::time::Duration::from_secs(30)) else {
                return;
            };
            let header = tiny_http::Header::from_bytes("Content-Type", content_type).unwrap();
            let response = tiny_http::Response::from_string(body)
                .with_status_code(status)
                .with_header(header);
            let _ = request.respond(response);
        }
    });
    format!("http://127.0.0.1:{port}/robots.txt")
}

#[test]
#[cfg_attr(
    not(feature = "fetch"),
    ignore = "built without the `fetch` feature: no HTTP client"
)]
fn a_fetched_file_is_judged_by_its_status_and_content_type() {
    let (_, expect) = files("fetch", "");
    // 503: unreachable, so everything is disallowed: the allowed expectations fail.
    let url = serve(503, "text/plain", "", 1);
    let out = policy(&url, &expect, &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("HTTP 503") && stdout.contains("MUST assume everything is disallowed"),
        "{stdout}"
    );
    // 200 as HTML: parsed as rules anyway.
    let url = serve(
        200,
        "text/html",
        "<html>\nUser-agent: *\nDisallow: /admin/\nDisallow: /cart\n</html>\n",
        1,
    );
    let out = policy(&url, &expect, &["--impl", "none"]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("served as HTML"), "{stdout}");
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // 404: unavailable, everything may be crawled: the disallowed expectations fail.
    let url = serve(404, "text/plain", "not found", 1);
    let out = policy(&url, &expect, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("MAY access everything"),
        "{}",
        text(&out.stdout)
    );
}

// ---- `--robots URL`: the access method, over loopback HTTP (reptest-site) ----

use reptest_site::{Fault, Redirect, Scenario, Site};

const RULES: &str = "User-agent: *\nDisallow: /admin/\nDisallow: /cart\n";

/// A loopback site for `scenario` that stops by itself within 30 s.
fn site(scenario: &Scenario) -> Site {
    site_for(scenario, 30)
}

/// A loopback site for `scenario` that stops by itself after `seconds`.
fn site_for(scenario: &Scenario, seconds: u64) -> Site {
    reptest_site::Options::new()
        .max_requests(20)
        .lifetime(std::time::Duration::from_secs(seconds))
        .start(scenario)
        .expect("a loopback site")
}

/// `reptest policy` on `url` with the reference alone and a short timeout.
fn policy_url(name: &str, url: &str, more: &[&str]) -> Output {
    let (_, expect) = files(name, "");
    policy(
        url,
        &expect,
        &[&["--impl", "none", "--timeout", "2"], more].concat(),
    )
}

#[test]
#[cfg_attr(
    not(feature = "fetch"),
    ignore = "built without the `fetch` feature: no HTTP client"
)]
fn a_gzipped_body_is_decoded_before_it_is_parsed() {
    let site = site(&Scenario::new(200, RULES).with_gzip(true));
    let out = policy_url("gzip", &site.robots_url(), &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("gzip-decoded"), "{stdout}");
}

/// A gzip body that decodes to 1 GiB of comment lines: 1024 gzip members of 1 MiB each.
fn gzip_bomb() -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(&b"#".repeat(1 << 20)).unwrap();
    let member = encoder.finish().unwrap();
    member.repeat(1024)
}

/// The largest peak memory of this test process's waited-for children (Linux: getrusage
/// RUSAGE_CHILDREN). The test that asks runs alone in its process (`alone`), so they are
/// its own children, started from a small process.
#[cfg(unix)]
fn children_max_rss() -> u64 {
    // SAFETY: an all-zero rusage is a valid value; getrusage writes into it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to our own rusage.
    assert_eq!(
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) },
        0
    );
    usage.ru_maxrss as u64 * 1024
}

#[test]
#[cfg_attr(
    not(feature = "fetch"),
    ignore = "built without the `fetch` feature: no HTTP client"
)]
fn a_gzip_bomb_costs_no_more_than_the_size_limit() {
    if alone::elsewhere("policy::a_gzip_bomb_costs_no_more_than_the_size_limit") {
        return;
    }
    let bomb = gzip_bomb();
    let server = tiny_http::Server::http("127.0.0.1:0").expect("a loopback port");
    let port = server.server_addr().to_ip().expect("an IP address").port();
    std::thread::spawn(move || {
        if let Ok(Some(request)) = server.recv_timeout(std::time::Duration::from_secs(30)) {
            let header = tiny_http::Header::from_bytes("Content-Encoding", "gzip").unwrap();
            let _ = request.respond(tiny_http::Response::from_data(bomb).with_header(header));
        }
    });
    let url = format!("http://127.0.0.1:{port}/robots.txt");
    let out = policy_url("bomb", &url, &[]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("longer than 2097152 bytes") && stdout.contains("cut the rest"),
        "{stdout}{}",
        text(&out.stderr)
    );
    #[cfg(unix)]
    {
        let rss = children_max_rss();
        assert!(rss < 256 << 20, "peak memory {rss} bytes for a 1 GiB bomb");
    }
}

#[test]
#[cfg_attr(
    not(feature = "fetch"),
    ignore = "built without the `fetch` feature: no HTTP client"
)]
fn five_redirects_are_followed_and_shown_and_a_sixth_means_unavailable() {
    let hops = |n: usize| {
        (0..n).map(|i| {
            if i == 2 {
                Redirect::cross_origin(302)
            } else {
                Redirect::new(301)
            }
        })
    };
    let five = site(&Scenario::new(200, RULES).with_redirects(hops(5)));
    let out = policy_url("redirects5", &five.robots_url(), &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert_eq!(
        stdout.matches(" redirect to http://127.").count(),
        5,
        "{stdout}"
    );
    assert!(stdout.contains("302 redirect to"), "{stdout}");

    let six = site(&Scenario::new(200, RULES).with_redirects(hops(6)));
    let out = policy_url("redirects6", &six.robots_url(), &[]);
    let stdout = text(&out.stdout);
    // Unavailable: everything may be crawled, so the disallowed expectations fail.
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("more than five consecutive redirects")
            && stdout.contains("treated as unavailable (RFC 9309 §2.3.1.2)")
            && !stdout.contains("§2.3.1.4"),
        "{stdout}"
    );
    assert_eq!(
        six.stop().requests.len(),
        6,
        "the sixth redirect is not followed"
    );
}

#[test]
#[cfg_attr(
    not(feature = "fetch"),
    ignore = "built without the `fetch` feature: no HTTP client"
)]
fn a_body_longer_than_the_size_limit_is_reported_cut() {
    let mut body = RULES.to_string();
    while body.len() <= 3 << 20 {
        body.push_str("# a comment line that pads the file past the size limit\n");
    }
    let site = site(&Scenario::new(200, body));
    let out = policy_url("cut", &site.robots_url(), &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("longer than 2097152 bytes"), "{stdout}");
}

#[test]
#[cfg_attr(
    not(feature = "fetch"),
    ignore = "built without the `fetch` feature: no HTTP client"
)]
fn a_stalled_or_short_body_is_unreachable_with_the_rfc_sentence() {
    let help = text(
        &Command::new(REPTEST)
            .args(["policy", "--help"])
            .output()
            .unwrap()
            .stdout,
    );
    assert!(help.contains("--timeout <SECONDS>"), "{help}");
    // A stalled body ends with `--timeout 1`: the site stops (closing the connection) only
    // after 5 s, so a timeout that was not honoured would end otherwise, not `timed out`.
    let stall = (Fault::NeverCompletes, "timed out");
    let short = (Fault::ResetMidBody, "reset");
    for (fault, error) in [stall, short] {
        let scenario =
            Scenario::new(200, "User-agent: *\nAllow: /\n# and more\n").with_fault(fault);
        let site = site_for(&scenario, 5);
        let (_, expect) = files("stall", "");
        let out = policy(
            &site.robots_url(),
            &expect,
            &["--impl", "none", "--timeout", "1"],
        );
        let stdout = text(&out.stdout);
        // Unreachable: everything is disallowed, so the allowed expectations fail.
        assert_eq!(
            out.status.code(),
            Some(1),
            "{fault:?}: {stdout}{}",
            text(&out.stderr)
        );
        assert!(
            stdout.contains("the body broke off after 17 of 34 bytes")
                && stdout.contains(error)
                && stdout.contains("MUST assume complete disallow.\"")
                && stdout.contains("12 expectations, 6 hold"),
            "{fault:?}: {stdout}"
        );
    }
}

#[test]
#[cfg_attr(
    not(feature = "fetch"),
    ignore = "built without the `fetch` feature: no HTTP client"
)]
fn a_redirect_chain_is_shown_and_an_error_body_is_not_linted() {
    let scenario = Scenario::new(404, "<html>\nCrawl-dely: 5\nNot found\n</html>\n")
        .with_redirects([Redirect::new(301)]);
    let site = site(&scenario);
    let out = policy_url("error-body", &site.robots_url(), &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("301 redirect to http://127."), "{stdout}");
    assert!(stdout.contains("HTTP 404"), "{stdout}");
    assert!(!stdout.contains("lint warnings"), "{stdout}");
}

#[test]
#[cfg_attr(
    not(feature = "fetch"),
    ignore = "built without the `fetch` feature: no HTTP client"
)]
fn a_server_that_cannot_be_reached_is_a_fetch_error() {
    let refusing = site(&Scenario::new(200, RULES).with_fault(Fault::ConnectionRefused));
    let out = policy_url("refused", &refusing.robots_url(), &[]);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    assert!(stderr.contains("cannot fetch"), "{stderr}");

    // The site answered, but its redirect leads to a server that refuses: unreachable.
    let scenario = Scenario::new(200, RULES)
        .with_redirects([Redirect::cross_origin(301)])
        .with_fault(Fault::ConnectionRefused);
    let redirecting = site(&scenario);
    let out = policy_url("refused-after-redirect", &redirecting.robots_url(), &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("301 redirect to") && stdout.contains("MUST assume complete disallow.\""),
        "{stdout}"
    );
}

#[test]
fn contradictory_expectations_are_refused_with_file_and_line() {
    let dir = common::temp_dir("policy", "contradiction");
    std::fs::write(dir.join("robots.txt"), RULES).unwrap();
    let expect = dir.join("policy.toml");
    std::fs::write(
        &expect,
        "[[expect]]\nagents = [\"*\", \"GPTBot\"]\nallowed = [\"/\", \"/blog/\"]\n\n[[expect]]\nagents = [\"gptbot\"]\ndisallowed = [\"https://example.com/blog/\"]\n",
    )
    .unwrap();
    let out = policy(
        dir.join("robots.txt").to_str().unwrap(),
        &expect,
        &["--impl", "none"],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}{stderr}", text(&out.stdout));
    let file = expect.display().to_string();
    assert!(
        stderr.contains(&format!("{file}:7: `gptbot`")) && stderr.contains(&format!("at {file}:3")),
        "{stderr}"
    );
}

#[test]
fn a_failure_under_an_agents_own_group_says_the_star_group_no_longer_applies() {
    let (robots, expect) = files(
        "own-group",
        "User-agent: *\nDisallow: /admin/\nDisallow: /cart\n\nUser-agent: GPTBot\nDisallow: /private/\n",
    );
    let out = policy(robots.to_str().unwrap(), &expect, &["--impl", "none"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout.matches("FAIL disallowed GPTBot").count(),
        2,
        "{stdout}"
    );
    assert_eq!(
        stdout
            .matches("GPTBot has its own group (line 5), so the `*` group's rules (line 1) no longer apply to it (RFC 9309 §2.2.1")
            .count(),
        2,
        "{stdout}"
    );
}

#[test]
#[cfg_attr(
    not(feature = "crates"),
    ignore = "built without the `crates` feature: no rust-robots-txt to compare with"
)]
fn github_and_junit_carry_lint_warnings_and_other_readings_at_their_lines() {
    let dir = common::temp_dir("policy", "formats");
    let robots = dir.join("robots.txt");
    std::fs::write(
        &robots,
        "User-agent: *\nDisallow: /admin/\nDisallow: /cart\nDisallow: /*.pdf$\n\nUser-agent: GPTBot\nDisallow: /\nCrawl-dely: 5\n",
    )
    .unwrap();
    let expect = dir.join("policy.toml");
    std::fs::write(
        &expect,
        "[[expect]]\nagents = [\"*\"]\ndisallowed = [\"/files/a.pdf\"]\n\n[[expect]]\nagents = [\"GPTBot\"]\nallowed = [\"/\"]\n",
    )
    .unwrap();
    let robots = robots.to_str().unwrap();
    // rust-robots-txt knows no wildcards: it reads `Disallow: /*.pdf$` (line 4) otherwise.
    let github = text(&policy(robots, &expect, &["--format", "github"]).stdout);
    let line = |level: &str, at: usize| {
        github
            .lines()
            .filter(|l| {
                l.starts_with(&format!("::{level} ")) && l.contains(&format!(",line={at},"))
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        line("error", 7).contains("GPTBot has its own group"),
        "{github}"
    );
    assert!(
        line("warning", 4).contains("read otherwise")
            && line("warning", 4).contains("rust-robots-txt: allowed"),
        "{github}"
    );
    assert!(line("warning", 8).contains("Crawl-dely"), "{github}");

    let xml = text(&policy(robots, &expect, &["--format", "junit"]).stdout);
    let doc = roxmltree::Document::parse(&xml).expect("valid XML");
    let case = |at: &str| {
        doc.descendants()
            .find(|n| n.has_tag_name("testcase") && n.attribute("line") == Some(at))
            .unwrap_or_else(|| panic!("no testcase at line {at}: {xml}"))
    };
    let inner = |node: roxmltree::Node<'_, '_>, tag: &str| {
        node.children()
            .find(|n| n.has_tag_name(tag))
            .and_then(|n| n.text())
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        inner(case("7"), "failure").contains("no longer apply"),
        "{xml}"
    );
    assert!(
        inner(case("4"), "system-out").contains("rust-robots-txt: allowed"),
        "{xml}"
    );
    let suite = doc
        .descendants()
        .find(|n| n.has_tag_name("testsuite"))
        .unwrap();
    assert!(inner(suite, "system-out").contains("Crawl-dely"), "{xml}");
}
