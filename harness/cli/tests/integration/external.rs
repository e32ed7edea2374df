//! External adapters end to end, with the fixture adapter (`reptest-fixture-adapter`)
//! and `reptest serve`: crashes, hangs and garbage are recorded per query and the run
//! completes; per-query mode; handshake failures; byte-exact bodies over the protocol.

use crate::common;

use reptest::impls::external;
use reptest::{impls, runner, Availability, CaseInput, Implementation, Outcome, QueryInput};
use reptest_corpus::Corpus;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The tests' own environment (REPTEST_STATE, REPTEST_ADAPTERS, PATH), read here as the
/// command line reads it: the libraries take it as a value.
fn environment() -> reptest::Environment {
    reptest::Environment::from_lookup(|name| std::env::var_os(name))
}

const FIXTURE: &str = env!("CARGO_BIN_EXE_reptest-fixture-adapter");
const REPTEST: &str = env!("CARGO_BIN_EXE_reptest");

fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir("external", name)
}

/// A folder holding `adapters.toml` with `toml`.
fn adapters_dir(name: &str, toml: &str) -> PathBuf {
    let dir = temp_dir(name);
    std::fs::write(dir.join("adapters.toml"), toml).unwrap();
    dir
}

/// The one adapter registered by `toml`.
fn adapter(name: &str, toml: &str) -> Box<dyn Implementation> {
    let mut all = external::from_dirs(&[adapters_dir(name, toml)], &environment());
    assert_eq!(all.len(), 1, "one adapter in {toml}");
    all.pop().unwrap()
}

fn persistent_toml(name: &str, args: &[&str], extra: &str) -> String {
    let command: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    format!(
        "[[adapter]]\nname = \"{name}\"\nlanguage = \"Rust\"\ncommand = [{}]\n{extra}\n",
        command.join(", ")
    )
}

/// A corpus of one file: cases of (id, agents), each query of URL
/// `https://example.com/x` against an empty body, expected allowed.
fn corpus(name: &str, cases: &[(&str, &[&str])]) -> Corpus {
    let dir = common::allowed_corpus(temp_dir(name), cases);
    Corpus::load(&dir).unwrap_or_else(|e| panic!("{e}"))
}

fn words(outcomes: &[Outcome]) -> Vec<&'static str> {
    outcomes.iter().map(Outcome::word).collect()
}

#[test]
fn crash_hang_and_garbage_are_recorded_for_exactly_those_queries() {
    let faulty = adapter(
        "faulty",
        &persistent_toml("fixture-faulty", &[FIXTURE, "faulty"], "timeout_ms = 300"),
    );
    assert_eq!(faulty.availability(), Availability::Available);
    let corpus = corpus(
        "faulty-corpus",
        &[
            ("crashes", &["a", "crash-now", "b", "c"]),
            ("hangs", &["d", "hang-now", "e"]),
            ("garbles", &["garbage-now", "f"]),
            ("doubles", &["double-now", "i"]),
            ("skips", &["skip-now", "j"]),
            ("fine", &["g", "h"]),
        ],
    );
    let started = Instant::now();
    let run = runner::run(&corpus, &[faulty]);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let outcomes = &run.outcomes[0];
    assert_eq!(
        words(outcomes),
        [
            "allowed",
            "crash",
            "allowed",
            "allowed", // crashes
            "allowed",
            "timeout",
            "allowed", // hangs
            "error",
            "allowed", // garbles
            "disallowed",
            "allowed", // doubles: the second answer is skipped as stale
            "error",
            "allowed", // skips: an answer for a later request is an error
            "allowed",
            "allowed", // fine
        ]
    );
    let Outcome::Crash(why) = &outcomes[1] else {
        unreachable!()
    };
    assert!(
        why.contains("exit status: 3") && why.contains("crashing as asked"),
        "{why}"
    );
    let Outcome::Error(why) = &outcomes[7] else {
        unreachable!()
    };
    assert!(why.contains("this is not JSON"), "{why}");
    let Outcome::Error(why) = &outcomes[11] else {
        unreachable!()
    };
    assert!(why.contains("out of order"), "{why}");
}

#[test]
fn after_too_many_restarts_the_rest_is_crash_at_once() {
    let faulty = adapter(
        "restarts",
        &persistent_toml(
            "fixture-restarts",
            &[FIXTURE, "faulty"],
            "timeout_ms = 2000",
        ),
    );
    let agents = vec!["crash-now"; external::MAX_RESTARTS + 10];
    let queries: Vec<QueryInput<'_>> = agents
        .iter()
        .map(|agent| QueryInput { agent, url: "/x" })
        .collect();
    let outcomes = faulty.evaluate(&CaseInput {
        robots: b"",
        fetch: None,
        queries: &queries,
    });
    assert_eq!(outcomes.len(), queries.len());
    assert!(outcomes.iter().all(|o| o.word() == "crash"));
    let Outcome::Crash(last) = outcomes.last().unwrap() else {
        unreachable!()
    };
    assert!(last.contains("restarted 20 times"), "{last}");
}

#[test]
fn a_failed_handshake_or_missing_program_is_unavailable_with_a_fix() {
    let bad = adapter(
        "bad-handshake",
        &persistent_toml("fixture-bad", &[FIXTURE, "bad-handshake"], ""),
    );
    let Availability::Unavailable { why, fix } = bad.availability() else {
        panic!("a bad handshake is unavailable")
    };
    assert!(
        why.contains("handshake failed") && why.contains("hello, I am not a handshake"),
        "{why}"
    );
    assert!(fix.contains("adapters.toml"), "{fix}");
    assert_eq!(bad.name(), "fixture-bad");

    let dir = adapters_dir(
        "missing",
        &persistent_toml("fixture-missing", &["/nonexistent/adapter"], ""),
    );
    std::fs::write(dir.join("setup.sh"), "true\n").unwrap();
    let missing = external::from_dirs(std::slice::from_ref(&dir), &environment())
        .pop()
        .unwrap();
    let Availability::Unavailable { why, fix } = missing.availability() else {
        panic!("a missing program is unavailable")
    };
    assert!(why.contains("`/nonexistent/adapter` not found"), "{why}");
    assert_eq!(fix, format!("bash {}", dir.join("setup.sh").display()));
}

#[test]
fn a_malformed_registration_is_an_unavailable_entry_naming_file_and_line() {
    let all = external::from_dirs(&[adapters_dir(
        "malformed",
        "[[adapter]]\nname = \"ok\"\nlanguage = \"Rust\"\ncommand = [\"x\"]\n\n[[adapter]]\nname = \"broken\"\nlanguage = \"Rust\"\n",
    )], &environment());
    assert_eq!(all.len(), 2);
    let Availability::Unavailable { why, .. } = all[1].availability() else {
        panic!("malformed is unavailable")
    };
    assert!(
        why.contains("adapters.toml:6: adapter `broken`: missing field `command`"),
        "{why}"
    );
}

fn per_query_toml(name: &str, extra: &str) -> String {
    format!(
        "[[adapter]]\nname = \"{name}\"\nlanguage = \"Rust\"\nmode = \"per-query\"\ncommand = [{FIXTURE:?}, \"per-query\", \"%robots%\", \"%user-agent%\", \"%url%\"]\ntimeout_ms = 5000\n{extra}\n"
    )
}

fn answer(implementation: &dyn Implementation, agents: &[&str]) -> Vec<Outcome> {
    let queries: Vec<QueryInput<'_>> = agents
        .iter()
        .map(|agent| QueryInput {
            agent,
            url: "https://example.com/x",
        })
        .collect();
    implementation.evaluate(&CaseInput {
        robots: b"User-agent: *\nDisallow: /\n",
        fetch: None,
        queries: &queries,
    })
}

#[test]
fn per_query_mode_reads_exit_statuses_and_patterns() {
    let agents = ["a", "disallowbot", "%url%"];
    let cases = [
        ("exit-default", "", ["allowed", "disallowed", "allowed"]),
        (
            "exit-swapped",
            "allowed_exit = 1\ndisallowed_exit = 0",
            ["disallowed", "allowed", "disallowed"],
        ),
        (
            "anchored",
            "allowed_pattern = \"^ALLOWED\"\ndisallowed_pattern = \"^DISALLOWED\"",
            ["allowed", "disallowed", "allowed"],
        ),
        (
            "contained",
            "allowed_pattern = \"ALLOWED\"\ndisallowed_pattern = \"DISALLOWED\"",
            ["allowed", "disallowed", "allowed"],
        ),
        (
            "neither",
            "allowed_pattern = \"^YES\"\ndisallowed_pattern = \"^NO\"",
            ["error", "error", "error"],
        ),
        (
            "status-2",
            "allowed_exit = 5\ndisallowed_exit = 6",
            ["error", "error", "error"],
        ),
    ];
    for (name, extra, expected) in cases {
        let implementation = adapter(name, &per_query_toml(name, extra));
        assert_eq!(implementation.availability(), Availability::Available);
        assert_eq!(
            words(&answer(implementation.as_ref(), &agents)),
            expected,
            "{name}"
        );
    }
}

#[test]
fn a_per_query_process_that_hangs_is_a_timeout_and_is_killed_with_its_children() {
    // `sh` starts `sleep`, which keeps stdout open: the whole process group must die.
    let implementation = adapter(
        "per-query-hang",
        "[[adapter]]\nname = \"hang\"\nlanguage = \"sh\"\nmode = \"per-query\"\ncommand = [\"sh\", \"-c\", \"sleep 30; echo ALLOWED\", \"%robots%\"]\ntimeout_ms = 300\n",
    );
    let started = Instant::now();
    assert_eq!(
        words(&answer(implementation.as_ref(), &["a", "b"])),
        ["timeout", "timeout"]
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn adapters_that_take_paths_get_paths() {
    let paths = adapter(
        "paths",
        &persistent_toml("fixture-paths", &[FIXTURE, "paths"], ""),
    );
    assert!(!paths.info().capabilities.full_urls);
    let queries: Vec<QueryInput<'_>> = ["https://example.com/a?b", "https://example.com", "/c"]
        .iter()
        .map(|url| QueryInput { agent: "a", url })
        .collect();
    let outcomes = paths.evaluate(&CaseInput {
        robots: b"",
        fetch: None,
        queries: &queries,
    });
    assert_eq!(words(&outcomes), ["allowed", "allowed", "allowed"]);
}

fn served_reference() -> Box<dyn Implementation> {
    adapter(
        "serve",
        &persistent_toml(
            "served-reference",
            &[REPTEST, "serve", "--impl", "reference"],
            "",
        ),
    )
}

#[test]
fn the_served_reference_answers_the_whole_corpus_like_the_reference() {
    let corpus = Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"));
    let served = served_reference();
    assert_eq!(served.availability(), Availability::Available);
    assert_eq!(served.info().version, env!("CARGO_PKG_VERSION"));
    assert!(served.info().capabilities.reports_line && served.info().capabilities.full_urls);
    let mut implementations = impls::select(&["reference"]).unwrap();
    implementations.push(served);
    let run = runner::run(&corpus, &implementations);
    let mut compared = 0;
    for (q, (case, query)) in corpus.queries().enumerate() {
        let (local, remote) = (&run.outcomes[0][q], &run.outcomes[1][q]);
        if case.fetch.is_some() {
            assert_eq!(remote.word(), "unsupported", "{}", query.id);
        } else {
            assert_eq!(local, remote, "{}", query.id);
            compared += 1;
        }
    }
    assert!(compared > 600, "{compared}");
}

#[test]
fn odd_bytes_and_characters_round_trip_through_the_protocol() {
    let served = served_reference();
    let reference = impls::select(&["reference"]).unwrap().pop().unwrap();
    let bodies: [&[u8]; 5] = [
        b"\xef\xbb\xbfUser-agent: *\rDisallow: /a\rAllow: /a/b\r",
        b"User-agent: *\nDisallow: /\0x\nDisallow: /caf\xc3\xa9\n",
        b"User-agent: b\xe2\x80\xa8ot\r\nDisallow: /\xff\xfe\r\nDisallow: /\xe2\x80\xa8\n",
        b"User-agent: *\n\xc2\x85Disallow: /n\nDisallow: /\"q\\\n",
        b"",
    ];
    let agents = ["examplebot", "b\u{2028}ot", "bot\u{85}", "\u{1f600}"];
    let urls = [
        "https://example.com/a",
        "https://example.com/a/b",
        "https://example.com/\0x",
        "https://example.com/caf\u{e9}",
        "https://example.com/\u{2028}",
        "https://example.com/%E2%80%A8",
        "https://example.com/\"q\\",
        "https://example.com/n\r\nx",
    ];
    let queries: Vec<QueryInput<'_>> = agents
        .iter()
        .flat_map(|agent| urls.iter().map(move |url| QueryInput { agent, url }))
        .collect();
    for body in bodies {
        let case = CaseInput {
            robots: body,
            fetch: None,
            queries: &queries,
        };
        assert_eq!(
            served.evaluate(&case),
            reference.evaluate(&case),
            "{:?}",
            String::from_utf8_lossy(body)
        );
    }
}

#[test]
fn serve_speaks_the_protocol() {
    let mut child = Command::new(REPTEST)
        .args(["serve", "--impl", "reference"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"{\"id\": 1, \"robots_b64\": \"VXNlci1hZ2VudDogKgpEaXNhbGxvdzogLwo=\", \"agent\": \"\\u00e9bot\", \"url\": \"/x\"}\nnot json \xc3\xa9\n")
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.is_ascii(), "{text}");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["protocol"], 1);
    assert_eq!(lines[0]["name"], "reference");
    assert_eq!(
        lines[1],
        serde_json::json!({"id": 1, "verdict": "disallowed", "line": 2})
    );
    assert!(lines[2]["error"].as_str().unwrap().contains("invalid JSON"));
}

fn reptest_with_adapters(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(REPTEST)
        .args(args)
        .env("REPTEST_ADAPTERS", dir)
        .output()
        .unwrap()
}

#[test]
fn run_exit_code_matrix_and_json() {
    let dir = adapters_dir(
        "cli",
        &persistent_toml("fixture-cli", &[FIXTURE, "faulty"], "timeout_ms = 300"),
    );
    let corpus_dir = temp_dir("cli-corpus");
    corpus("cli-corpus", &[("c", &["a", "crash-now", "b"])]);
    let corpus_dir = corpus_dir.to_str().unwrap().to_string();
    let matrix = temp_dir("cli-matrix").join("m.tsv");

    // Named explicitly: its crash makes the exit code 1.
    let out = reptest_with_adapters(
        &dir,
        &[
            "run",
            "--corpus",
            &corpus_dir,
            "--impl",
            "reference,fixture-cli",
            "--json",
            "--matrix",
            matrix.to_str().unwrap(),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The report model (`reptest report`'s report.json): outcomes found by query id.
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["implementations"][1]["name"], "fixture-cli");
    assert!(json["implementations"][1]["seconds"].as_f64().unwrap() > 0.0);
    let word = |id: &str| {
        let query = json["cases"][0]["queries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["id"] == id)
            .unwrap();
        let index = query["index"].as_u64().unwrap() as usize;
        json["outcomes"][1][index]["word"].clone()
    };
    assert_eq!(word("c/crash-now:/x"), "crash");
    assert_eq!(word("c/a:/x"), "allowed");
    assert_eq!(
        std::fs::read_to_string(&matrix).unwrap(),
        "query\texpected\treference\tfixture-cli\nc/a:/x\tallowed\tallowed\tallowed\nc/crash-now:/x\tallowed\tallowed\tcrash\nc/b:/x\tallowed\tallowed\tallowed\n"
    );

    // Only the reference named: exit 0.
    let out = reptest_with_adapters(
        &dir,
        &["run", "--corpus", &corpus_dir, "--impl", "reference"],
    );
    assert_eq!(out.status.code(), Some(0));

    // The default, every available implementation: the reference decides the exit code.
    let out = reptest_with_adapters(&dir, &["run", "--corpus", &corpus_dir]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("fixture-cli") && stdout.contains("queries/s"),
        "{stdout}"
    );
    assert!(
        stdout.contains("every query passed by reference"),
        "{stdout}"
    );
}

#[test]
fn impls_lists_one_line_each_and_the_setup_command() {
    let dir = adapters_dir(
        "impls",
        &persistent_toml("fixture-missing-program", &["/nonexistent/adapter"], ""),
    );
    let out = reptest_with_adapters(&dir, &["impls"]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("fixture-missing-program "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        line.contains(" no ") && line.contains("not found"),
        "{line}"
    );
    assert!(
        stdout
            .trim_end()
            .lines()
            .any(|l| l.ends_with("bash harness/external/setup")),
        "{stdout}"
    );
}

/// The harness gives every implementation the same path for a URL, whatever its form
/// (issue: `urn:x/y` reached the reference as `/x/y` but adapters as `/urn:x/y`). Each
/// URL is checked against a file that allows exactly its expected path (`Allow: PATH$`
/// over `Disallow: /`), through the reference directly, a crate adapter in process, and
/// the reference again as an external adapter over protocol v1 (`reptest serve`).
#[test]
fn odd_urls_reach_every_kind_of_adapter_as_the_same_path() {
    let cases = [
        ("urn:x/y", "/x/y"),
        ("x/y", "/x/y"),
        ("*x", "/*x"),
        ("http://[::1]:8080/a?b=c", "/a?b=c"),
        ("https://example.com/p#frag", "/p"),
        // Dot segments are resolved, as a client does before fetching.
        ("https://example.com/a/../b", "/b"),
        ("?q", "/?q"),
        ("mailto:someone", "/someone"),
    ];
    let served = served_reference();
    let in_process = impls::select(&["reference", "rust-robotxt"]).unwrap();
    let implementations: Vec<&dyn Implementation> = in_process
        .iter()
        .map(|i| i.as_ref())
        .chain([served.as_ref()])
        .collect();
    for (url, path) in cases {
        let robots = format!("User-agent: *\nDisallow: /\nAllow: {path}$\n");
        let other = format!("User-agent: *\nDisallow: /\nAllow: {path}x$\n");
        for implementation in &implementations {
            let answer = |body: &str| {
                implementation.evaluate(&CaseInput {
                    robots: body.as_bytes(),
                    fetch: None,
                    queries: &[QueryInput { agent: "bot", url }],
                })[0]
                    .allowed()
            };
            assert_eq!(
                (answer(&robots), answer(&other)),
                (Some(true), Some(false)),
                "{}: {url} should be matched as exactly {path}",
                implementation.name()
            );
        }
    }
}

// --- Protocol v2: batch requests -------------------------------------------------------

/// The fixture in mode `v2` (a persistent adapter that takes batch requests), speaking
/// protocol `max` at most.
fn v2_fixture(name: &str, extra: &str, max: u64) -> external::Persistent {
    let dir = adapters_dir(
        name,
        &persistent_toml(&format!("fixture-{name}"), &[FIXTURE, "v2"], extra),
    );
    let spec = external::config::load(&[dir.join("adapters.toml")], &environment())
        .adapters
        .pop()
        .unwrap();
    external::Persistent::with_max_protocol(spec, Default::default(), max)
}

/// Queries of the given agents, the i-th with URL `https://example.com/p{i + 1}`.
fn numbered<'a>(agents: &[&'a str], urls: &'a [String]) -> Vec<QueryInput<'a>> {
    agents
        .iter()
        .zip(urls)
        .map(|(agent, url)| QueryInput { agent, url })
        .collect()
}

fn line_of(outcome: &Outcome) -> Option<usize> {
    match outcome {
        Outcome::Verdict { line, .. } => *line,
        _ => None,
    }
}

fn numbered_urls(n: usize) -> Vec<String> {
    (1..=n)
        .map(|i| format!("https://example.com/p{i}"))
        .collect()
}

fn evaluate(implementation: &dyn Implementation, queries: &[QueryInput<'_>]) -> Vec<Outcome> {
    implementation.evaluate(&CaseInput {
        robots: b"User-agent: *\nDisallow: /p\n",
        fetch: None,
        queries,
    })
}

#[test]
fn batch_answers_go_to_their_queries_in_order_across_several_requests() {
    let v2 = v2_fixture("v2-order", "", 2);
    assert_eq!(v2.availability(), Availability::Available);
    assert_eq!(v2.protocol(), Some(2));
    // More than one batch's worth: the case goes out as several pipelined requests.
    let n = external::MAX_BATCH * 2 + 5;
    let urls = numbered_urls(n);
    let agents: Vec<&str> = (0..n)
        .map(|i| if i % 3 == 0 { "disallowbot" } else { "bot" })
        .collect();
    let queries = numbered(&agents, &urls);
    let outcomes = evaluate(&v2, &queries);
    assert_eq!(outcomes.len(), n);
    for (i, outcome) in outcomes.iter().enumerate() {
        assert_eq!(
            outcome,
            &Outcome::Verdict {
                allowed: i % 3 != 0,
                line: Some(i + 1)
            },
            "query {i}"
        );
    }
    // One request per batch: the fixture reports the size of the request it answered.
    let urls = numbered_urls(3);
    let sizes = evaluate(&v2, &numbered(&["batch-size"; 3], &urls));
    let sizes: Vec<Option<usize>> = sizes.iter().map(line_of).collect();
    assert_eq!(sizes, [Some(3); 3]);
    // A lone query goes out as a v1 request, which a v2 adapter answers too.
    let one = evaluate(&v2, &numbered(&["bot"], &urls));
    assert_eq!(
        one,
        [Outcome::Verdict {
            allowed: true,
            line: Some(1)
        }]
    );
}

#[test]
fn protocol_1_forced_sends_one_request_per_query_and_gives_the_same_answers() {
    let v1 = v2_fixture("v2-forced-v1", "", 1);
    let v2 = v2_fixture("v2-not-forced", "", 2);
    assert_eq!(v1.protocol(), Some(1));
    let urls = numbered_urls(4);
    let sizes = evaluate(&v1, &numbered(&["batch-size"; 4], &urls));
    assert!(sizes.iter().all(|o| line_of(o) == Some(1)), "{sizes:?}");
    let agents = ["a", "disallowbot", "b", "disallowbot"];
    assert_eq!(
        evaluate(&v1, &numbered(&agents, &urls)),
        evaluate(&v2, &numbered(&agents, &urls))
    );
}

#[test]
fn a_v1_adapter_is_spoken_to_in_v1() {
    let dir = adapters_dir(
        "v1-still",
        &persistent_toml("fixture-v1-still", &[FIXTURE, "faulty"], ""),
    );
    let spec = external::config::load(&[dir.join("adapters.toml")], &environment())
        .adapters
        .pop()
        .unwrap();
    let v1 = external::Persistent::new(spec, Default::default());
    assert_eq!(v1.protocol(), Some(1));
    let urls = numbered_urls(5);
    let outcomes = evaluate(&v1, &numbered(&["a", "b", "c", "d", "e"], &urls));
    assert_eq!(words(&outcomes), ["allowed"; 5]);
}

#[test]
fn a_wrong_count_or_garbage_is_an_error_for_every_query_of_that_request_only() {
    let v2 = v2_fixture("v2-count", "", 2);
    let urls = numbered_urls(3);
    for agents in [["a", "short-now", "b"], ["a", "garbage-now", "b"]] {
        let outcomes = evaluate(&v2, &numbered(&agents, &urls));
        assert_eq!(words(&outcomes), ["error"; 3], "{agents:?}");
        let Outcome::Error(why) = &outcomes[0] else {
            unreachable!()
        };
        assert!(
            why.contains("2 answers to a request of 3 queries")
                || why.contains("this is not JSON either"),
            "{why}"
        );
        // The process goes on: the next case is answered.
        let fine = evaluate(&v2, &numbered(&["a", "b"], &urls));
        assert_eq!(words(&fine), ["allowed", "allowed"]);
    }
}

#[test]
fn a_batch_that_hangs_or_crashes_is_timeout_or_crash_for_all_its_queries_and_restarts() {
    let v2 = v2_fixture("v2-faults", "timeout_ms = 300", 2);
    let urls = numbered_urls(3);
    let started = Instant::now();
    let hung = evaluate(&v2, &numbered(&["a", "hang-now", "b"], &urls));
    let waited = started.elapsed();
    assert_eq!(words(&hung), ["timeout"; 3]);
    // The batch's timeout: 300 ms once per query.
    assert!(
        waited >= Duration::from_millis(900) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    let Outcome::Timeout(why) = &hung[2] else {
        unreachable!()
    };
    assert!(
        why.contains("fixture-v2-faults: request") && why.contains("a batch of 3 queries"),
        "{why}"
    );
    assert!(why.contains("no answer within 0.9 s"), "{why}");
    let crashed = evaluate(&v2, &numbered(&["a", "b", "crash-now"], &urls));
    assert_eq!(words(&crashed), ["crash"; 3]);
    let Outcome::Crash(why) = &crashed[0] else {
        unreachable!()
    };
    assert!(
        why.contains("a batch of 3 queries")
            && why.contains("exit status: 3")
            && why.contains("crashing in a batch as asked"),
        "{why}"
    );
    // Restarted: the next case is answered.
    let fine = evaluate(&v2, &numbered(&["a", "b", "c"], &urls));
    assert_eq!(words(&fine), ["allowed"; 3]);
}

#[test]
fn a_handshake_of_protocol_3_is_unavailable() {
    let v3 = adapter("v3", &persistent_toml("fixture-v3", &[FIXTURE, "v3"], ""));
    let Availability::Unavailable { why, .. } = v3.availability() else {
        panic!("protocol 3 is unavailable")
    };
    assert!(why.contains("speaks protocol 3"), "{why}");
}

/// Every shipped external adapter that is installed gives the same outcomes over v2
/// (batch requests, where it said `"protocol": 2`) as over v1 forced
/// (`REPTEST_PROTOCOL=1`), on the corpus's multi-query cases with small bodies and on a
/// case whose queries mix agents, origins and URL forms.
#[test]
fn every_external_adapter_answers_the_same_over_v1_and_v2() {
    let corpus = Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"));
    let mut cases: Vec<&reptest_corpus::Case> = corpus
        .cases()
        .iter()
        .filter(|c| c.fetch.is_none() && c.queries.len() > 1 && c.body.len() < 4096)
        .collect();
    // Spread over the corpus, a bounded number.
    let step = cases.len().div_ceil(60).max(1);
    cases = cases.into_iter().step_by(step).collect();
    let mixed: Vec<QueryInput<'_>> = [
        ("examplebot", "https://example.com/private/x"),
        ("otherbot", "https://example.com/private/x"),
        ("ExampleBot", "https://example.com/open"),
        ("examplebot", "http://example.org:8080/private?q=1"),
        ("otherbot", "https://example.com/"),
        ("examplebot", "https://example.com/private/open/y"),
    ]
    .iter()
    .map(|&(agent, url)| QueryInput { agent, url })
    .collect();
    let mixed_body: &[u8] =
        b"User-agent: examplebot\nDisallow: /private\nAllow: /private/open\n\nUser-agent: *\nDisallow: /\n";

    let registry = external::config::load(
        &external::config::default_files(&environment()),
        &environment(),
    );
    let mut compared = Vec::new();
    for spec in registry.adapters {
        if !spec.file.starts_with(external::config::builtin_dir())
            || !matches!(spec.mode, external::Mode::Persistent)
        {
            continue;
        }
        let name = spec.name.clone();
        let v1 = external::Persistent::with_max_protocol(spec.clone(), Default::default(), 1);
        let v2 = external::Persistent::with_max_protocol(spec, Default::default(), 2);
        if v2.availability() != Availability::Available {
            continue;
        }
        for case in &cases {
            assert_eq!(
                runner::evaluate_case(&v1, case),
                runner::evaluate_case(&v2, case),
                "{name}: case {}",
                case.id
            );
        }
        let mixed_case = CaseInput {
            robots: mixed_body,
            fetch: None,
            queries: &mixed,
        };
        assert_eq!(
            v1.evaluate(&mixed_case),
            v2.evaluate(&mixed_case),
            "{name}: mixed agents and origins"
        );
        compared.push(format!("{name} (v{})", v2.protocol().unwrap_or(0)));
    }
    eprintln!(
        "compared over {} cases: {}",
        cases.len() + 1,
        compared.join(", ")
    );
}
