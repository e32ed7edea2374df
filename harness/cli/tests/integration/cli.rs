//! The `reptest` binary end to end: stable interface, clear errors, no panics.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn reptest(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reptest"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("reptest runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp_file(name: &str, body: &[u8]) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("reptest-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, body).unwrap();
    path
}

/// `reptest check` of `url` for agent `examplebot` on the file `robots`, with `extra`
/// arguments after the usual ones.
fn check_with(robots: &str, url: &str, extra: &[&str], stdin: &[u8]) -> Output {
    let mut args = vec![
        "check",
        "--robots",
        robots,
        "--agent",
        "examplebot",
        "--url",
        url,
    ];
    args.extend_from_slice(extra);
    reptest(&args, stdin)
}

/// `reptest check` for agent `examplebot`: its exit must be a success; returns stdout.
fn check(robots: &str, url: &str, stdin: &[u8]) -> String {
    let out = check_with(robots, url, &[], stdin);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn check_prints_the_verdict_and_the_deciding_line() {
    let robots = temp_file(
        "check.txt",
        b"User-agent: *\nAllow: /private/open\nDisallow: /private\n",
    );
    let path = robots.to_str().unwrap();
    let stdout = check(path, "https://example.com/private/x", b"");
    assert!(stdout.starts_with("disallowed\n"), "{stdout}");
    assert!(
        stdout.contains("line 3") && stdout.contains("Disallow: /private"),
        "{stdout}"
    );

    let stdout = check(path, "/private/open", b"");
    assert!(
        stdout.starts_with("allowed\n") && stdout.contains("line 2"),
        "{stdout}"
    );

    let stdout = check("-", "/x", b"User-agent: other\nDisallow: /\n");
    assert!(
        stdout.starts_with("allowed\n") && stdout.contains("no group"),
        "{stdout}"
    );
}

#[test]
fn check_on_a_missing_file_is_a_clear_error() {
    let out = reptest(
        &[
            "check",
            "--robots",
            "/nonexistent/robots.txt",
            "--agent",
            "a",
            "--url",
            "/",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot read /nonexistent/robots.txt"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn eval_answers_every_line_in_order_and_survives_bad_ones() {
    let input = concat!(
        r#"{"id": 1, "robots": "User-agent: *\nDisallow: /a\n", "agent": "examplebot", "url": "https://example.com/a"}"#,
        "\n",
        "not json\n",
        r#"{"id": "b", "robots_b64": "77u/VXNlci1hZ2VudDogKgpEaXNhbGxvdzogLwo=", "agent": "examplebot", "url": "/x"}"#,
        "\n",
        "\n",
        r#"{"id": [3], "robots": "", "url": "/"}"#,
        "\n",
        r#"{"robots_b64": "!!", "agent": "a", "url": "/"}"#,
        "\n",
        r#"{"id": 5, "robots": "User-agent: *\nDisallow: /a\n", "agent": "examplebot", "url": "/b"}"#,
        "\n",
    );
    let out = reptest(&["eval", "--impl", "reference"], input.as_bytes());
    assert_eq!(out.status.code(), Some(2), "bad lines make a non-zero exit");
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // One line out per line in: the blank fourth line gets an error of its own.
    assert_eq!(lines.len(), 7, "{}", text(&out.stdout));
    assert_eq!(
        lines[0],
        serde_json::json!({"id": 1, "verdict": "disallowed", "line": 2})
    );
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("line 2: invalid JSON"));
    assert_eq!(lines[2]["id"], "b");
    assert_eq!(
        lines[2]["verdict"], "disallowed",
        "a leading BOM is skipped by default"
    );
    assert!(lines[3]["error"]
        .as_str()
        .unwrap()
        .contains("line 4: blank"));
    assert_eq!(lines[4]["id"], serde_json::json!([3]));
    assert!(lines[4]["error"]
        .as_str()
        .unwrap()
        .contains("missing `agent`"));
    assert!(lines[5]["error"].as_str().unwrap().contains("base64"));
    assert_eq!(lines[5]["id"], serde_json::Value::Null);
    assert_eq!(lines[6]["verdict"], "allowed");
    assert!(
        text(&out.stderr).contains("4 line(s) answered with an error, 3 with a verdict"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn eval_of_clean_input_exits_zero_and_unknown_impl_is_an_error() {
    let out = reptest(&["eval"], br#"{"robots":"","agent":"a","url":"/"}"#);
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout).trim(),
        r#"{"id":null,"verdict":"allowed"}"#
    );
    let out = reptest(&["eval", "--impl", "nosuch"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown implementation `nosuch`"));
}

#[test]
fn corpus_stats_json_reports_coverage() {
    let out = reptest(&["corpus", "stats", "--json"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(stats["queries"].as_u64().unwrap() >= 300);
    assert!(stats["cases"].as_u64().unwrap() > 0);
    assert_eq!(stats["uncovered"], serde_json::json!([]));
    assert!(stats["per_level"]["MUST"].as_u64().unwrap() > 0);
    assert!(stats["per_requirement"]["2.2.2-LONGEST"].as_u64().unwrap() >= 3);
}

#[test]
fn run_passes_on_the_shipped_corpus() {
    let out = reptest(&["run", "--impl", "reference"], b"");
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("every query passed"));
}

/// A corpus folder holding the shipped requirement index and one case file.
fn temp_corpus(name: &str, file: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("reptest-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        reptest_corpus::default_dir().join("requirements.md"),
        dir.join("requirements.md"),
    )
    .unwrap();
    std::fs::write(dir.join(file), text).unwrap();
    dir
}

#[test]
fn a_malformed_corpus_is_reported_with_file_case_and_line() {
    let dir = temp_corpus(
        "badcorpus",
        "bad.toml",
        "[[case]]\nid = \"broken\"\ntitle = \"t\"\nrobots = \"\"\n[[case.query]]\nagent = \"a\"\nurl = \"/\"\nexpect = \"yes\"\nrequirements = [\"9.9-NOPE\"]\nlevel = \"MUST\"\nwhy = \"w\"\n",
    );
    for args in [
        &["run", "--corpus"][..],
        &["corpus", "stats", "--corpus"][..],
    ] {
        let mut args = args.to_vec();
        args.push(dir.to_str().unwrap());
        let out = reptest(&args, b"");
        assert_eq!(out.status.code(), Some(2));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("bad.toml:6: case `broken`: query 1: expect `yes`"),
            "{stderr}"
        );
        assert!(
            stderr.contains("unknown requirement ID `9.9-NOPE`"),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// One deliberately wrong query (the RFC says every URL is disallowed) citing
/// `requirements`, at `url`.
fn wrong_query(url: &str, requirements: &str) -> String {
    format!(
        "[[case.query]]\nagent = \"a\"\nurl = \"{url}\"\nexpect = \"allowed\"\nrequirements = [{requirements}]\nlevel = \"MUST\"\nwhy = \"deliberately wrong\"\n"
    )
}

/// The line of `text` that contains `needle`, and its index.
fn line_with<'t>(text: &'t str, needle: &str) -> (usize, &'t str) {
    text.lines()
        .enumerate()
        .find(|(_, l)| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in:\n{text}"))
}

/// `reptest run` groups the failures by root cause: three queries testing
/// 2.2.2-PREFIX alone, one testing 2.2.1-STAR-FALLBACK alone, one citing both (no root
/// cause, last whatever its size); the largest group first, each with one example and
/// its count; `--list` prints every query instead.
#[test]
fn run_fails_when_a_query_fails_and_groups_failures_by_cause() {
    let prefix = "\"2.2.2-PREFIX\"";
    let star = "\"2.2.1-STAR-FALLBACK\"";
    let mut corpus =
        "[[case]]\nid = \"wrong\"\ntitle = \"t\"\nrobots = \"User-agent: *\\nDisallow: /\\n\"\n"
            .to_string();
    for (url, requirements) in [
        ("/x", prefix.to_string()),
        ("/only-star", star.to_string()),
        ("/y", prefix.to_string()),
        ("/both", format!("{prefix}, {star}")),
        ("/z", prefix.to_string()),
    ] {
        corpus.push_str(&wrong_query(url, &requirements));
    }
    let dir = temp_corpus("failcorpus", "wrong.toml", &corpus);
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "--impl",
            "reference",
            "--corpus",
            dir.to_str().unwrap(),
        ];
        args.extend(extra);
        let out = reptest(&args, b"");
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let grouped = run(&[]);
    let (header, line) = line_with(&grouped, "decided queries did not pass");
    assert!(
        line.starts_with("reference: 5 decided queries did not pass, 3 cause(s); 0 of them (0.0%) name a question"),
        "{grouped}"
    );
    let (prefix_at, prefix_line) = line_with(&grouped, "2.2.2-PREFIX  ");
    let (star_at, star_line) = line_with(&grouped, "2.2.1-STAR-FALLBACK  ");
    let (none_at, none_line) = line_with(&grouped, "no root cause");
    assert_eq!(
        prefix_line.split_whitespace().next(),
        Some("3"),
        "{grouped}"
    );
    assert_eq!(star_line.split_whitespace().next(), Some("1"), "{grouped}");
    assert_eq!(none_line.split_whitespace().next(), Some("1"), "{grouped}");
    assert!(
        header < prefix_at && prefix_at < star_at && star_at < none_at,
        "{grouped}"
    );
    // One example per cause, right under it: the first query of the group.
    let lines: Vec<&str> = grouped.lines().collect();
    assert!(
        lines[prefix_at + 1].contains("e.g. wrong/")
            && lines[prefix_at + 1].contains("url=/x: expected allowed, got disallowed (line 2)"),
        "{grouped}"
    );
    assert!(lines[star_at + 1].contains("url=/only-star"), "{grouped}");
    assert!(lines[none_at + 1].contains("url=/both"), "{grouped}");
    assert_eq!(grouped.matches("e.g. ").count(), 3, "{grouped}");
    assert!(!grouped.contains("FAIL "), "{grouped}");
    let (_, details) = line_with(&grouped, "details:");
    assert!(
        details.contains("reptest report --impl reference") && details.contains("reptest gate"),
        "{details}"
    );
    // The same grouping in the JSON, with every query of each group as a row index.
    let json: serde_json::Value = serde_json::from_str(&run(&["--json"])).unwrap();
    let causes = &json["scores"][0]["causes"]["rfc9309"];
    assert_eq!(causes["non_passing"], 5, "{causes}");
    assert_eq!(causes["with_question"], 0, "{causes}");
    assert_eq!(causes["share"], 0.0, "{causes}");
    let groups: Vec<(String, String, u64, Vec<u64>)> = causes["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let queries = g["queries"].as_array().unwrap();
            (
                g["kind"].as_str().unwrap().to_string(),
                g["id"].as_str().unwrap_or("-").to_string(),
                g["count"].as_u64().unwrap(),
                queries.iter().map(|q| q.as_u64().unwrap()).collect(),
            )
        })
        .collect();
    let group = |kind: &str, id: &str, count, queries: &[u64]| {
        (kind.to_string(), id.to_string(), count, queries.to_vec())
    };
    assert_eq!(
        groups,
        [
            group("requirement", "2.2.2-PREFIX", 3, &[0, 2, 4]),
            group("requirement", "2.2.1-STAR-FALLBACK", 1, &[1]),
            group("none", "-", 1, &[3]),
        ]
    );
    let listed = run(&["--list"]);
    assert_eq!(listed.matches("  FAIL wrong/").count(), 5, "{listed}");
    assert!(
        listed.contains("url=/x: expected allowed, got disallowed (line 2)"),
        "{listed}"
    );
}

#[test]
fn impls_json_lists_the_reference() {
    let out = reptest(&["impls", "--json"], b"");
    assert!(out.status.success());
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reference = list
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "reference")
        .unwrap();
    assert_eq!(reference["available"], true);
    assert_eq!(reference["language"], "Rust");
}

#[test]
fn help_teaches() {
    let out = reptest(&["--help"], b"");
    let stdout = text(&out.stdout);
    for word in ["check", "eval", "corpus", "run", "impls", "Examples"] {
        assert!(stdout.contains(word), "{stdout}");
    }
}

/// An `--agent` that is not an RFC 9309 product token (§2.2.1) is refused, naming the
/// token it most likely meant; it no longer falls silently to the `*` group.
#[test]
fn check_refuses_an_agent_that_is_not_a_product_token() {
    let robots = temp_file("token.txt", b"User-agent: googlebot\nDisallow: /\n");
    let robots = robots.to_str().unwrap();
    for (agent, fix) in [
        ("Googlebot/2.1", "--agent Googlebot"),
        ("google bot", "--agent google"),
        ("", "a token such as `examplebot`"),
    ] {
        let out = reptest(
            &["check", "--robots", robots, "--agent", agent, "--url", "/x"],
            b"",
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{agent:?}: {stderr}");
        assert!(
            stderr.contains("is not a product token") && stderr.contains(fix),
            "{agent:?}: {stderr}"
        );
    }
}

/// Given a crawler's whole User-Agent header, check suggests the crawler's own token,
/// not the `Mozilla` every such header starts with.
#[test]
fn check_suggests_the_crawlers_token_out_of_a_user_agent_header() {
    let robots = temp_file("header.txt", b"User-agent: googlebot\nDisallow: /\n");
    let robots = robots.to_str().unwrap();
    for (agent, fix) in [
        (
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "--agent Googlebot",
        ),
        (
            "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
            "--agent GPTBot",
        ),
        (
            "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
            "--agent bingbot",
        ),
    ] {
        let out = reptest(
            &["check", "--robots", robots, "--agent", agent, "--url", "/x"],
            b"",
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{agent:?}: {stderr}");
        assert!(stderr.contains(fix), "{agent:?}: {stderr}");
        assert!(!stderr.contains("--agent Mozilla"), "{agent:?}: {stderr}");
    }
}

/// A URL that is not an absolute http(s) URL or a path is checked by its path, and the
/// output says what was assumed.
#[test]
fn check_says_what_it_assumed_about_an_odd_url() {
    let robots = temp_file("assumed.txt", b"User-agent: *\nDisallow: /private\n");
    let robots = robots.to_str().unwrap();
    for (url, said) in [
        ("", "the URL is empty: checked as the path `/`"),
        ("*", "has no `scheme://host`: checked as the path `/*`"),
        ("mailto:someone", "checked as the path `/someone`"),
        (
            "ftp://example.com/private",
            "the scheme `ftp` is not HTTP(S)",
        ),
        ("http://[::1/private", "has an unclosed `[`"),
        (
            "//example.com/private",
            "is a protocol-relative URL (a network-path reference, RFC 3986 §4.2): what follows `//` up to the next `/` is its host, not part of its path; checked as the path `/private`",
        ),
    ] {
        let out = check(robots, url, b"");
        assert!(
            out.contains("assumed: ") && out.contains(said),
            "{url:?}: {out}"
        );
    }
    assert!(!check(robots, "https://example.com/private", b"").contains("assumed"));
    assert!(!check(robots, "/private", b"").contains("assumed"));
}

/// A body cut at the parse limit is always told, not only with `--warnings`.
#[test]
fn check_says_when_the_body_was_cut_at_the_parse_limit() {
    let mut body = b"User-agent: *\n".to_vec();
    body.extend(std::iter::repeat_n(b'#', 600_000));
    body.extend_from_slice(b"\nDisallow: /late\n");
    let robots = temp_file("cut.txt", &body);
    let out = check(robots.to_str().unwrap(), "/late", b"");
    assert!(out.starts_with("allowed"), "{out}");
    assert!(
        out.contains("longer than the parse limit of 512000 bytes"),
        "{out}"
    );
}

/// Warnings quote the file in visible notation: no raw NUL or invalid UTF-8 reaches the
/// terminal.
#[test]
fn check_warnings_use_visible_notation() {
    let robots = temp_file("nul.txt", b"User-agent: *\nFoo\0bar: x\xff\nDisallow: /p\n");
    let out = check_with(robots.to_str().unwrap(), "/p", &["--warnings"], b"");
    assert!(out.status.success());
    assert!(!out.stdout.contains(&0), "a raw NUL was printed");
    assert!(
        std::str::from_utf8(&out.stdout).is_ok(),
        "invalid UTF-8 was printed"
    );
    assert!(
        text(&out.stdout).contains("Foo\\x00bar"),
        "{}",
        text(&out.stdout)
    );
}

/// Under `--profile google`, a verdict that only Google's reading gives cites Google's
/// choice, not an RFC section; a reading both profiles make still cites the RFC.
#[test]
fn check_cites_googles_choice_when_it_decides() {
    let robots = temp_file(
        "choice.txt",
        b"User-agent: *\nDissallow: /typo\nDisallow: /plain\n",
    );
    let robots = robots.to_str().unwrap();
    // Google keeps `private` as examplebot's own rule, which matches nothing; read
    // strictly it is no rule, and both agents share `Disallow: /private`.
    let slash = temp_file(
        "slash.txt",
        b"User-agent: examplebot\nDisallow: private\nUser-agent: otherbot\nDisallow: /private\n",
    );
    let slash = slash.to_str().unwrap();
    for (file, url, verdict, choice) in [
        (
            slash,
            "/private",
            "allowed",
            "a pattern starting with neither `/` nor `*`",
        ),
        (robots, "/typo", "disallowed", "misspelt record names"),
    ] {
        let out = check_with(file, url, &["--profile", "google"], b"");
        let stdout = text(&out.stdout);
        assert!(stdout.starts_with(verdict), "{url}: {stdout}");
        assert!(stdout.contains("Google's choice: "), "{url}: {stdout}");
        assert!(stdout.contains(choice), "{url}: {stdout}");
        assert!(!stdout.contains("RFC 9309 §2.2.2"), "{url}: {stdout}");
    }
    let plain = check_with(robots, "/plain", &["--profile", "google"], b"");
    let stdout = text(&plain.stdout);
    assert!(stdout.contains("RFC 9309 §2.2.2"), "{stdout}");
    assert!(!stdout.contains("Google's choice"), "{stdout}");
}

/// `--warnings` on a binary file: one warning per line of the file, the bytes it quotes
/// in visible notation, and a note that no line was a record.
#[test]
fn check_warnings_on_a_binary_file_are_one_per_line_and_visible() {
    let robots = temp_file(
        "binary.bin",
        b"\x7fELF\x02\xff\xfe: \x00\x01\r\n\xca\xfe\xba\xbe\n",
    );
    let out = check_with(robots.to_str().unwrap(), "/", &["--warnings"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = std::str::from_utf8(&out.stdout).expect("UTF-8 output");
    assert!(!stdout.contains('\u{FFFD}'), "{stdout}");
    assert!(stdout.contains("`\\x7FELF\\x02\\xFF\\xFE`"), "{stdout}");
    let warnings: Vec<&str> = stdout.lines().filter(|l| l.contains("warning: ")).collect();
    assert_eq!(warnings.len(), 2, "{stdout}");
    assert!(
        warnings[0].contains("line 1: ") && warnings[1].contains("line 2: "),
        "{stdout}"
    );
    assert!(
        stdout.contains("no line of the file is a record"),
        "{stdout}"
    );

    let fine = temp_file("fine.txt", b"User-agent: *\nDisallow: /p\nFoo: bar\n");
    let out = check_with(fine.to_str().unwrap(), "/", &["--warnings"], b"");
    assert!(!text(&out.stdout).contains("no line of the file is a record"));
}

/// `corpus show` with an unknown id lists the nearest ids the corpus has.
#[test]
fn corpus_show_suggests_the_nearest_ids() {
    for (id, near) in [
        ("merge-two-star-group", "merge-two-star-groups"),
        ("merge-tow-star-groups", "merge-two-star-groups"),
        ("ex51-simple", "ex51-simple-example"),
    ] {
        let out = reptest(&["corpus", "show", "--corpus", "builtin", id], b"");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{id}: {stderr}");
        assert!(
            stderr.contains(&format!("no case with id `{id}`")),
            "{stderr}"
        );
        assert!(stderr.contains(&format!("\n  {near}")), "{id}: {stderr}");
    }
    let out = reptest(
        &["corpus", "show", "--corpus", "builtin", "zzzzzzzzzzzz"],
        b"",
    );
    assert!(
        !text(&out.stderr).contains("nearest"),
        "{}",
        text(&out.stderr)
    );
}

/// An argument that is not UTF-8 is an error naming the argument.
#[test]
fn check_names_an_argument_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let robots = temp_file("utf8.txt", b"User-agent: *\n");
    for (flag, bad) in [("--url", "--agent"), ("--agent", "--url")] {
        let value = std::ffi::OsStr::from_bytes(b"/\xff");
        let out = Command::new(env!("CARGO_BIN_EXE_reptest"))
            .args(["check", "--robots"])
            .arg(&robots)
            .args([bad, if bad == "--agent" { "examplebot" } else { "/x" }])
            .arg(flag)
            .arg(value)
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("{flag} is not valid UTF-8")),
            "{stderr}"
        );
    }
}

/// `eval` answers every line, a blank one with an error, so answers pair with requests
/// by position.
#[test]
fn eval_answers_a_blank_line_too() {
    let input = b"{\"robots\":\"User-agent: *\\nDisallow: /\",\"agent\":\"a\",\"url\":\"/x\"}\n\n   \n{\"robots\":\"\",\"agent\":\"a\",\"url\":\"/x\"}\n";
    let out = reptest(&["eval"], input);
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[1].contains("line 2: blank") && lines[2].contains("line 3: blank"));
    assert!(lines[3].contains("allowed"));
    assert_eq!(out.status.code(), Some(2));
}

/// `corpus export` writes a manifest, one object per query and each distinct body once
/// (by its SHA-256), in both formats; bodies survive byte for byte, the size-limit ones
/// as a few repeated parts.
#[test]
fn corpus_export_writes_every_query_with_its_exact_body() {
    let dir = std::env::temp_dir().join(format!("reptest-cli-{}-export", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = reptest(&["corpus", "export", "--out", dir.to_str().unwrap()], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["format"], 2);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(dir.join("queries.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let bodies: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("bodies.json")).unwrap()).unwrap();
    assert_eq!(manifest["queries"].as_u64().unwrap() as usize, lines.len());
    assert_eq!(manifest["bodies"].as_u64().unwrap() as usize, bodies.len());
    let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
    assert_eq!(manifest["corpus_fingerprint"], corpus.fingerprint());
    use base64::Engine;
    // A body's bytes: its parts, each text or base64, repeated.
    let bytes = |hash: &str| -> Vec<u8> {
        let body = &bodies[hash];
        let mut out = Vec::new();
        for part in body["parts"].as_array().unwrap() {
            let unit = match (part["text"].as_str(), part["b64"].as_str()) {
                (Some(text), None) => text.as_bytes().to_vec(),
                (None, Some(b64)) => base64::engine::general_purpose::STANDARD
                    .decode(b64)
                    .unwrap(),
                _ => panic!("{hash}: a part is text or b64: {part}"),
            };
            if part["b64"].is_string() {
                assert!(
                    std::str::from_utf8(&unit).is_err(),
                    "{hash}: UTF-8 as base64"
                );
            }
            out.extend(unit.repeat(part["repeat"].as_u64().unwrap_or(1) as usize));
        }
        assert_eq!(out.len() as u64, body["size"].as_u64().unwrap());
        out
    };
    let mut largest = 0;
    for ((case, query), line) in corpus.queries().zip(&lines) {
        assert_eq!(line["id"], query.id.as_str());
        assert_eq!(
            bytes(line["body_sha256"].as_str().unwrap()),
            case.body,
            "{}",
            query.id
        );
        largest = largest.max(case.body.len());
        assert_eq!(line["expect"]["rfc9309"], query.expect.as_str());
        assert_eq!(line["fetch"].is_null(), case.fetch.is_none());
        if let Some(cache) = case.fetch.as_ref().and_then(|f| f.cache.as_ref()) {
            let key = line["fetch"]["cache_body_sha256"].as_str().unwrap();
            assert_eq!(bytes(key), cache.body, "{}", query.id);
        }
        assert!(line.get("body_b64").is_none() && line.get("body").is_none());
    }
    // The 3 MB size-limit body is there, exactly, yet the export is small.
    assert!(largest >= 3_000_000, "{largest}");
    let size: u64 = ["manifest.json", "queries.jsonl", "bodies.json"]
        .iter()
        .map(|f| std::fs::metadata(dir.join(f)).unwrap().len())
        .sum();
    assert!(size < 5_000_000, "the export is {size} bytes");
    let out = reptest(
        &[
            "corpus",
            "export",
            "--out",
            dir.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let array: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("queries.json")).unwrap()).unwrap();
    assert_eq!(array.as_array().unwrap().len(), lines.len());
    assert_eq!(array[0]["body_sha256"], lines[0]["body_sha256"]);
}

/// The corpus built into the binary (what an installed reptest uses outside its source
/// tree) runs the same as the source tree's: run, gate and export with `--corpus builtin`.
#[test]
fn the_built_in_corpus_serves_run_gate_and_export() {
    let on_disk = reptest(&["run", "--impl", "reference", "--json"], b"");
    let built_in = reptest(
        &[
            "run",
            "--impl",
            "reference",
            "--json",
            "--corpus",
            "builtin",
        ],
        b"",
    );
    assert!(built_in.status.success(), "{}", text(&built_in.stderr));
    let fingerprint = |out: &Output| {
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (
            json["meta"]["corpus_fingerprint"].clone(),
            json["meta"]["queries"].clone(),
            json["scores"][0]["totals"].clone(),
        )
    };
    assert_eq!(fingerprint(&built_in), fingerprint(&on_disk));
    let dir = std::env::temp_dir().join(format!("reptest-cli-{}-builtin", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let baseline = dir.join("b.toml");
    let baseline = baseline.to_str().unwrap();
    for args in [
        vec![
            "gate",
            "--impl",
            "reference",
            "--baseline",
            baseline,
            "--corpus",
            "builtin",
            "--write-baseline",
        ],
        vec![
            "gate",
            "--impl",
            "reference",
            "--baseline",
            baseline,
            "--corpus",
            "builtin",
        ],
        vec![
            "corpus",
            "export",
            "--corpus",
            "builtin",
            "--out",
            dir.to_str().unwrap(),
        ],
    ] {
        let out = reptest(&args, b"");
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    }
}

/// `.` and `..` segments are resolved before matching, as a client resolves them before
/// it fetches: `/private/open/../../private/x` is `/private/x`.
#[test]
fn check_resolves_dot_segments() {
    let robots = temp_file(
        "dots.txt",
        b"User-agent: *\nAllow: /private/open\nDisallow: /private\n",
    );
    let out = check(
        robots.to_str().unwrap(),
        "https://example.com/private/open/../../private/x",
        b"",
    );
    assert!(out.starts_with("disallowed"), "{out}");
    assert!(
        out.contains("line 3") && out.contains("checked as the path `/private/x`"),
        "{out}"
    );
}

/// A raw space in a URL is the `%20` a client sends, in paths and rules alike.
#[test]
fn check_treats_a_raw_space_as_percent_20() {
    let robots = temp_file(
        "space.txt",
        b"User-agent: *\nDisallow: /a%20b\nDisallow: /c d\n",
    );
    let robots = robots.to_str().unwrap();
    assert!(check(robots, "https://example.com/a b", b"").starts_with("disallowed"));
    assert!(check(robots, "https://example.com/c%20d", b"").starts_with("disallowed"));
    assert!(check(robots, "https://example.com/a+b", b"").starts_with("allowed"));
}
