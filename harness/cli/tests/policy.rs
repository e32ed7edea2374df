//! `reptest policy`: a site owner's expectations checked against a robots.txt file, or
//! against one fetched from a server on 127.0.0.1 (never any other address).

mod common;

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
