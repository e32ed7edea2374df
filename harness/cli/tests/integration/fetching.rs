//! Fetch-capable libraries judged through their own fetching API (capability `fetches`,
//! harness/PROTOCOL.md "Fetch requests"): listed by `reptest impls` with the fetch
//! capability, judged on every fetch query that one fetch can show over real HTTP on the
//! loopback site (RFC 9309 §2.3.1), a verdict given without fetching is no verdict, a
//! fetch that never ends is `timeout`, and an interrupted run leaves neither an adapter
//! process nor a listening site behind.
//!
//! The shipped adapters come from `bash harness/external/setup` (the Python venv, the Go
//! binaries, the Java jar); without them the tests that use them fail naming that
//! command, unless built with `REPTEST_SKIP_FETCHING=1`, which marks them ignored. The
//! fixture adapters are Python scripts
//! written here (run by `python3` on PATH).
#![cfg(all(unix, feature = "crawlers"))]

use crate::common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const REPTEST: &str = env!("CARGO_BIN_EXE_reptest");

/// The shipped adapters whose libraries fetch, and what each is.
const FETCHING: [&str; 4] = [
    "go-temoto-robotstxt",
    "java-crawler-commons",
    "python-urllib",
    "python-robotspy",
];

/// `reptest impls --json --recheck`, parsed.
fn impls() -> Vec<serde_json::Value> {
    let out = Command::new(REPTEST)
        .args(["impls", "--json", "--recheck"])
        .env_remove("REPTEST_ADAPTERS")
        .output()
        .unwrap();
    assert!(out.status.success());
    serde_json::from_slice::<serde_json::Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// Fails unless the shipped fetching adapters are available.
fn require_fetching(list: &[serde_json::Value]) {
    let missing: Vec<&str> = FETCHING
        .into_iter()
        .filter(|name| {
            !list
                .iter()
                .any(|i| i["name"] == *name && i["available"] == true)
        })
        .collect();
    common::require(
        (!missing.is_empty()).then(|| format!("{missing:?} unavailable")),
        "REPTEST_SKIP_FETCHING",
        "bash harness/external/setup",
    )
}

#[test]
#[cfg_attr(
    reptest_skip_fetching,
    ignore = "built with REPTEST_SKIP_FETCHING=1; install the fetching adapters with `bash harness/external/setup`"
)]
fn at_least_four_adapters_fetch_through_their_own_api() {
    let list = impls();
    require_fetching(&list);
    let fetching: Vec<&str> = list
        .iter()
        .filter(|i| {
            i["kind"] == "process"
                && i["available"] == true
                && i["capabilities"]["fetch_outcomes"] == true
                && i["capabilities"]["fetches"] == true
        })
        .filter_map(|i| i["name"].as_str())
        .collect();
    for name in FETCHING {
        assert!(fetching.contains(&name), "{name} not in {fetching:?}");
    }
    assert!(fetching.len() >= 4, "{fetching:?}");
    // The others take bodies only.
    let protego = list.iter().find(|i| i["name"] == "python-protego").unwrap();
    assert_eq!(protego["capabilities"]["fetch_outcomes"], false);
    assert_eq!(protego["capabilities"]["fetches"], false);
}

/// `reptest run` with `args`, its matrix read back as query id -> outcome per column.
fn run_matrix(
    test: &str,
    args: &[&str],
    adapters: Option<&Path>,
) -> (Vec<(String, Vec<String>)>, String) {
    let dir = common::temp_dir("fetching", test);
    let matrix = dir.join("matrix.tsv");
    let mut command = Command::new(REPTEST);
    command.arg("run").args(args).arg("--matrix").arg(&matrix);
    match adapters {
        Some(dir) => command.env("REPTEST_ADAPTERS", dir),
        None => command.env_remove("REPTEST_ADAPTERS"),
    };
    let out = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    // 0 or 1 (queries failed); anything else is a broken run.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tsv = std::fs::read_to_string(&matrix).unwrap();
    let rows = tsv
        .lines()
        .skip(1)
        .map(|line| {
            let mut cells = line.split('\t').map(str::to_string);
            let id = cells.next().unwrap();
            let _expected = cells.next();
            (id, cells.collect())
        })
        .collect();
    (rows, stdout)
}

#[test]
#[cfg_attr(
    reptest_skip_fetching,
    ignore = "built with REPTEST_SKIP_FETCHING=1; install the fetching adapters with `bash harness/external/setup`"
)]
fn every_fetch_query_is_judged_over_http_and_plain_cases_still_by_body() {
    require_fetching(&impls());
    let names = FETCHING.join(",");
    let (rows, stdout) = run_matrix("run", &["--impl", &names], None);
    let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
    let outcome = |id: &str| {
        rows.iter()
            .find(|(row, _)| row == id)
            .map(|(_, cells)| cells.clone())
            .unwrap_or_else(|| panic!("{id} not in the matrix"))
    };
    let mut judged = 0;
    for (case, query) in corpus.queries() {
        let cells = outcome(&query.id);
        let servable = reptest::impls::site::scenario_for(case.fetch.as_ref(), &case.body).is_ok();
        for (name, got) in FETCHING.iter().zip(&cells) {
            if case.fetch.is_none() {
                assert_ne!(got, "unsupported", "{name} {}: a plain body", query.id);
            } else if !servable {
                assert_eq!(got, "unsupported", "{name} {}: not servable", query.id);
            } else {
                assert_ne!(got, "unsupported", "{name} {}", query.id);
                assert_ne!(got, "timeout", "{name} {}", query.id);
                assert_ne!(got, "crash", "{name} {}", query.id);
                judged += usize::from(got == "allowed" || got == "disallowed");
            }
        }
    }
    assert!(judged >= 4 * 30, "only {judged} fetch verdicts");
    // The status families as the libraries decide them (README, "Fetching libraries").
    let at = |id: &str| outcome(id);
    // §2.3.1.4: a 503 is complete disallow, for all four.
    assert_eq!(at("access-503/examplebot:/"), ["disallowed"; 4]);
    // §2.3.1.3: a 404 allows all, for all four.
    assert_eq!(at("access-404/examplebot:/"), ["allowed"; 4]);
    // A 403: temoto and crawler-commons allow all, CPython and robotspy disallow all.
    assert_eq!(
        at("access-403/examplebot:/page"),
        ["allowed", "allowed", "disallowed", "disallowed"]
    );
    // A reset mid-body: none of them gives a verdict (each raises or returns an error).
    assert_eq!(at("access-network-error/examplebot:/"), ["error"; 4]);
    // Their errors name what happened on the wire, not a missing fetch.
    assert!(stdout.contains("Connection reset by peer"), "{stdout}");
    assert!(!stdout.contains("answered without requesting"), "{stdout}");
}

/// A fixture adapter (Python) that claims `fetches`. `mode`: `no-fetch` answers every
/// fetch request `allowed` without fetching; `fetch-then-hang` writes the robots.txt URL to
/// the file named by `REPTEST_TEST_URLS`, fetches it, and never answers.
const FIXTURE: &str = r#"
import json, os, sys, time, urllib.request
mode = sys.argv[1]
hs = {"protocol": 2, "name": "fixture-fetcher", "version": "0", "language": "Python",
      "capabilities": {"full_urls": True, "reports_line": False, "fetches": True}}
print(json.dumps(hs), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    if "robots_url" in req and mode == "fetch-then-hang":
        with open(os.environ["REPTEST_TEST_URLS"], "a") as f:
            f.write(req["robots_url"] + "\n")
        try:
            urllib.request.urlopen(req["robots_url"], timeout=5).read()
        except Exception:
            pass
        time.sleep(3600)
    if "queries" in req:
        out = {"id": req["id"], "answers": [{"verdict": "allowed"} for _ in req["queries"]]}
    else:
        out = {"id": req["id"], "verdict": "allowed"}
    print(json.dumps(out), flush=True)
"#;

/// A folder with the fixture script and an `adapters.toml` registering it as `name` in
/// `mode`, with `extra` lines.
fn fixture_dir(test: &str, name: &str, mode: &str, extra: &str) -> PathBuf {
    let dir = common::temp_dir("fetching", test);
    std::fs::write(dir.join("fixture.py"), FIXTURE).unwrap();
    let toml = format!(
        "[[adapter]]\nname = \"{name}\"\nlanguage = \"Python\"\ncommand = [\"python3\", \"{{dir}}/fixture.py\", \"{mode}\"]\n{extra}\n"
    );
    std::fs::write(dir.join("adapters.toml"), toml).unwrap();
    dir
}

/// A corpus folder holding the corpus's requirements and one fetch case of one query.
fn one_fetch_case(test: &str) -> PathBuf {
    let dir = common::temp_dir("fetching", test);
    std::fs::copy(
        reptest_corpus::default_dir().join("requirements.md"),
        dir.join("requirements.md"),
    )
    .unwrap();
    let case = r#"
[[case]]
id = "fetching-fixture-200"
title = "HTTP 200, one query"
robots = "User-agent: *\nDisallow: /private\n"
[case.fetch]
status = 200

[[case.query]]
agent = "examplebot"
url = "https://example.com/private"
expect = "disallowed"
requirements = ["2.3.1.1-SUCCESS"]
level = "MUST"
why = "the downloaded rule /private MUST be followed"
"#;
    std::fs::write(dir.join("fetching.toml"), case).unwrap();
    dir
}

#[test]
fn a_verdict_given_without_fetching_is_an_error() {
    let adapters = fixture_dir("no-fetch", "fixture-no-fetch", "no-fetch", "");
    let corpus = one_fetch_case("no-fetch-corpus");
    let (rows, stdout) = run_matrix(
        "no-fetch-run",
        &[
            "--impl",
            "fixture-no-fetch",
            "--corpus",
            corpus.to_str().unwrap(),
        ],
        Some(&adapters),
    );
    assert_eq!(
        rows,
        [(
            "fetching-fixture-200/examplebot:/private".to_string(),
            vec!["error".to_string()]
        )]
    );
    assert!(
        stdout.contains("answered without requesting http://<site>/robots.txt"),
        "{stdout}"
    );
}

#[test]
fn a_fetch_that_never_answers_is_a_timeout() {
    let adapters = fixture_dir(
        "hang",
        "fixture-hang",
        "fetch-then-hang",
        "timeout_ms = 600",
    );
    let corpus = one_fetch_case("hang-corpus");
    let urls = common::temp_dir("fetching", "hang-urls").join("urls");
    let out = Command::new(REPTEST)
        .args(["run", "--impl", "fixture-hang", "--corpus"])
        .arg(&corpus)
        .env("REPTEST_ADAPTERS", &adapters)
        .env("REPTEST_TEST_URLS", &urls)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("got timeout"), "{stdout}");
    assert!(
        stdout.contains("a fetch of http://<site>/robots.txt"),
        "{stdout}"
    );
    // It did fetch from the loopback site (the first of its requests).
    let fetched = std::fs::read_to_string(&urls).unwrap();
    assert!(fetched.starts_with("http://127."), "{fetched}");
}

/// `host:port` of `http://host:port/...`.
fn authority(url: &str) -> String {
    let rest = url.trim().strip_prefix("http://").unwrap();
    rest.split('/').next().unwrap().to_string()
}

#[test]
fn sigint_during_a_fetch_leaves_no_adapter_and_no_site_behind() {
    let adapters = fixture_dir("sigint", "fixture-sigint", "fetch-then-hang", "");
    let corpus = one_fetch_case("sigint-corpus");
    let urls = common::temp_dir("fetching", "sigint-urls").join("urls");
    let tag = format!("fetch-sigint-{}", std::process::id());
    let mut child = Command::new(REPTEST)
        .args(["run", "--impl", "fixture-sigint", "--corpus"])
        .arg(&corpus)
        .env("REPTEST_ADAPTERS", &adapters)
        .env("REPTEST_TEST_URLS", &urls)
        .env("REPTEST_TEST_TAG", &tag)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Until the adapter has fetched: the site is up and the adapter hangs.
    let deadline = Instant::now() + Duration::from_secs(60);
    let robots_url = loop {
        let text = std::fs::read_to_string(&urls).unwrap_or_default();
        if text.ends_with('\n') {
            break text;
        }
        assert!(Instant::now() < deadline, "the adapter never fetched");
        std::thread::sleep(Duration::from_millis(20));
    };
    let site = authority(&robots_url);
    // The site answers while the run is on.
    let mut live = std::net::TcpStream::connect(&site).expect("the site listens during the run");
    let _ = live.write_all(b"GET /robots.txt HTTP/1.0\r\n\r\n");
    drop(live);
    assert!(
        !common::tagged(&tag, child.id()).is_empty(),
        "no adapter process"
    );
    common::interrupt_and_expect_nothing_left(&mut child, &tag, "adapter");
    // Nothing listens on the site's address any more.
    assert!(
        std::net::TcpStream::connect_timeout(&site.parse().unwrap(), Duration::from_secs(1))
            .is_err(),
        "the site {site} outlived the run"
    );
}
