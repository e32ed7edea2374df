//! `reptest gate` end to end through the built binary: the ratchet, the three formats and
//! the errors. The gated implementation is `rust-robots-txt`, in process (fast) and
//! failing a good number of corpus queries, so its baseline has known failures.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const IMPL: &str = "rust-robots-txt";

fn reptest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reptest"))
        .args(args)
        .env_remove("REPTEST_ADAPTERS")
        .env_remove("REPTEST_CORPUS")
        .output()
        .expect("reptest runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    )
}

/// `reptest gate --impl IMPL --baseline FILE` with more arguments.
fn gate(baseline: &Path, more: &[&str]) -> Output {
    let mut args = vec![
        "gate",
        "--impl",
        IMPL,
        "--baseline",
        baseline.to_str().unwrap(),
    ];
    args.extend_from_slice(more);
    reptest(&args)
}

/// A temp dir holding a freshly recorded baseline for [`IMPL`].
fn recorded() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("reptest-baseline.toml");
    let out = gate(&baseline, &["--write-baseline"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(text(&out.stdout).starts_with("wrote "), "{}", show(&out));
    assert!(
        text(&out.stdout).contains("known failures"),
        "{}",
        show(&out)
    );
    (dir, baseline)
}

/// Claims in `baseline` that the first query the implementation fails passed: the next
/// gate finds a regression there. Returns its id.
fn inject_regression(baseline: &Path) -> String {
    let mut table = read(baseline);
    let failures = table["known_failure"].as_array_mut().unwrap();
    let moved = failures.remove(0)["id"].as_str().unwrap().to_string();
    table["passed"]
        .as_array_mut()
        .unwrap()
        .push(moved.clone().into());
    write(baseline, &table);
    moved
}

/// The baseline's TOML as a table.
fn read(path: &Path) -> toml::Table {
    toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn ids(table: &toml::Table, key: &str) -> Vec<String> {
    table[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn known_failure_ids(table: &toml::Table) -> Vec<String> {
    let Some(entries) = table.get("known_failure") else {
        return Vec::new(); // none
    };
    entries
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect()
}

fn write(path: &Path, table: &toml::Table) {
    std::fs::write(path, toml::to_string(table).unwrap()).unwrap();
}

/// The ids listed under the human report's section starting with `title`.
fn section(stdout: &str, title: &str) -> Vec<String> {
    let mut lines = stdout.lines().skip_while(|l| !l.starts_with(title));
    assert!(lines.next().is_some(), "no section {title:?} in:\n{stdout}");
    lines
        .take_while(|l| l.starts_with("  "))
        // Entry lines, not the explanation indented under each.
        .filter(|l| !l.starts_with("      "))
        .filter(|l| l.trim() != "none")
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

const REGRESSIONS: &str = "Regressions (passed in the baseline, fail now)";
const STALE: &str = "Stale known failures (pass now: remove them from the baseline)";

#[test]
fn an_unchanged_run_passes() {
    let (_dir, baseline) = recorded();
    let table = read(&baseline);
    assert_eq!(table["implementation"].as_str(), Some(IMPL));
    assert_eq!(table["profile"].as_str(), Some("rfc9309"));
    assert!(
        !known_failure_ids(&table).is_empty(),
        "{IMPL} fails some queries"
    );
    let out = gate(&baseline, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let stdout = text(&out.stdout);
    assert!(section(&stdout, REGRESSIONS).is_empty(), "{stdout}");
    assert!(section(&stdout, STALE).is_empty(), "{stdout}");
    assert!(
        stdout.contains("\nPASS: 0 regressions, 0 stale"),
        "{stdout}"
    );
}

#[test]
fn an_injected_regression_fails_and_is_listed() {
    let (_dir, baseline) = recorded();
    let moved = inject_regression(&baseline);
    let out = gate(&baseline, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let stdout = text(&out.stdout);
    assert_eq!(
        section(&stdout, REGRESSIONS),
        vec![moved.clone()],
        "{stdout}"
    );
    assert!(section(&stdout, STALE).is_empty(), "{stdout}");
    assert!(stdout.contains("FAIL: 1 regression,"), "{stdout}");
    assert!(stdout.contains("--write-baseline"), "the fix: {stdout}");
}

#[test]
fn a_stale_known_failure_fails_the_ratchet() {
    let (_dir, baseline) = recorded();
    let mut table = read(&baseline);
    let passed = table["passed"].as_array_mut().unwrap();
    let stale = passed.remove(0).as_str().unwrap().to_string();
    let mut entry = toml::Table::new();
    entry.insert("id".into(), stale.clone().into());
    entry.insert("expected".into(), "allowed".into());
    entry.insert("got".into(), "disallowed".into());
    entry.insert("reason".into(), "upstream issue #1".into());
    table["known_failure"]
        .as_array_mut()
        .unwrap()
        .push(entry.into());
    write(&baseline, &table);
    let out = gate(&baseline, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let stdout = text(&out.stdout);
    assert_eq!(section(&stdout, STALE), vec![stale.clone()], "{stdout}");
    assert!(section(&stdout, REGRESSIONS).is_empty(), "{stdout}");

    // Re-recording drops the stale entry and keeps the reasons of the others.
    let mut table = read(&baseline);
    let first = table["known_failure"].as_array_mut().unwrap()[0]
        .as_table_mut()
        .unwrap();
    first.insert("reason".into(), "accepted: see notes".into());
    let kept = first["id"].as_str().unwrap().to_string();
    write(&baseline, &table);
    let out = gate(&baseline, &["--write-baseline"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let table = read(&baseline);
    assert!(!known_failure_ids(&table).contains(&stale));
    assert!(ids(&table, "passed").contains(&stale));
    let first = &table["known_failure"].as_array().unwrap()[0];
    assert_eq!(first["id"].as_str(), Some(kept.as_str()));
    assert_eq!(first["reason"].as_str(), Some("accepted: see notes"));
    assert_eq!(gate(&baseline, &[]).status.code(), Some(0));
}

/// A baseline with one regression and one stale entry.
fn broken(baseline: &Path) -> (String, String) {
    let mut table = read(baseline);
    let regression = table["known_failure"].as_array_mut().unwrap().remove(0)["id"]
        .as_str()
        .unwrap()
        .to_string();
    let passed = table["passed"].as_array_mut().unwrap();
    let stale = passed.remove(0).as_str().unwrap().to_string();
    passed.push(regression.clone().into());
    let mut entry = toml::Table::new();
    entry.insert("id".into(), stale.clone().into());
    entry.insert("expected".into(), "allowed".into());
    entry.insert("got".into(), "error".into());
    table["known_failure"]
        .as_array_mut()
        .unwrap()
        .push(entry.into());
    write(baseline, &table);
    (regression, stale)
}

fn attr<'a>(node: roxmltree::Node<'a, '_>, name: &str) -> &'a str {
    node.attribute(name)
        .unwrap_or_else(|| panic!("<{}> has no {name}", node.tag_name().name()))
}

fn count(node: roxmltree::Node<'_, '_>, name: &str) -> usize {
    attr(node, name)
        .parse()
        .unwrap_or_else(|_| panic!("{name} is not a count"))
}

#[test]
fn junit_follows_the_conventions_ci_systems_read() {
    let (dir, baseline) = recorded();
    let (regression, stale) = broken(&baseline);
    let report = dir.path().join("junit.xml");
    let out = gate(
        &baseline,
        &["--format", "junit", "--output", report.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(text(&out.stdout).contains("FAIL"), "{}", show(&out));
    let xml = std::fs::read_to_string(&report).unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root.children().filter(|n| n.is_element()).collect();
    assert_eq!(suites.len(), 1);
    let suite = suites[0];
    assert_eq!(suite.tag_name().name(), "testsuite");
    assert_eq!(attr(suite, "name"), format!("reptest gate: {IMPL}"));
    let cases: Vec<_> = suite
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    let with = |child: &str| {
        cases
            .iter()
            .filter(|c| c.children().any(|n| n.has_tag_name(child)))
            .count()
    };
    for node in [root, suite] {
        assert_eq!(count(node, "tests"), cases.len());
        assert_eq!(count(node, "failures"), with("failure"));
        assert_eq!(count(node, "failures"), 2);
        assert_eq!(count(node, "errors"), with("error"));
        assert_eq!(count(node, "errors"), 0);
        assert_eq!(count(node, "skipped"), with("skipped"));
        let time: f64 = attr(node, "time").parse().expect("time is a decimal");
        assert!(time >= 0.0);
    }
    assert!(cases.len() > 800, "one testcase per corpus query");
    let mut failures = Vec::new();
    for case in &cases {
        assert!(!attr(*case, "name").is_empty());
        assert!(attr(*case, "classname").starts_with("reptest."));
        assert!(attr(*case, "file").ends_with(".toml"));
        assert!(count(*case, "line") > 0);
        if let Some(failure) = case.children().find(|n| n.has_tag_name("failure")) {
            assert!(!attr(failure, "message").is_empty());
            failures.push((attr(*case, "name"), attr(failure, "type")));
            assert!(failure.text().unwrap_or("").contains(attr(*case, "name")));
        }
        if let Some(skipped) = case.children().find(|n| n.has_tag_name("skipped")) {
            assert!(!attr(skipped, "message").is_empty());
        }
    }
    failures.sort();
    let mut expected = vec![
        (regression.as_str(), "regression"),
        (stale.as_str(), "stale"),
    ];
    expected.sort();
    assert_eq!(failures, expected);
}

#[test]
fn github_format_annotates_files_and_lines() {
    let (_dir, baseline) = recorded();
    let (regression, stale) = broken(&baseline);
    let out = gate(&baseline, &["--format", "github"]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(!lines.is_empty());
    for line in &lines {
        assert!(
            ["::error ", "::warning ", "::notice "]
                .iter()
                .any(|p| line.starts_with(p)),
            "{line}"
        );
    }
    let errors: Vec<&&str> = lines.iter().filter(|l| l.starts_with("::error ")).collect();
    assert_eq!(errors.len(), 2, "{stdout}");
    for (error, id) in errors.iter().zip([&regression, &stale]) {
        let (properties, _) = error["::error ".len()..].split_once("::").unwrap();
        let properties: Vec<&str> = properties.split(',').collect();
        assert!(properties[0].starts_with("file=corpus/rfc/"), "{error}");
        assert!(properties[0].ends_with(".toml"), "{error}");
        let line: usize = properties[1]
            .strip_prefix("line=")
            .unwrap()
            .parse()
            .unwrap();
        assert!(line > 0);
        // Properties escape `%`, `:` and `,` (GitHub's workflow-command rules); ids hold `:`.
        let escaped = id
            .replace('%', "%25")
            .replace(':', "%3A")
            .replace(',', "%2C");
        assert!(
            properties[2].starts_with("title=") && properties[2].ends_with(&escaped),
            "{error}"
        );
    }
    assert!(errors[0].contains("title=reptest regression "), "{stdout}");
    assert!(
        errors[1].contains("title=reptest stale known failure "),
        "{stdout}"
    );
    assert!(lines.last().unwrap().starts_with("::notice "), "{stdout}");
    assert!(lines.last().unwrap().contains("FAIL"), "{stdout}");
}

#[test]
fn errors_exit_2_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.toml");
    let out = gate(&missing, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no baseline at"), "{stderr}");
    assert!(stderr.contains("--write-baseline"), "{stderr}");

    let other = dir.path().join("other.toml");
    std::fs::write(
        &other,
        "implementation = \"reference\"\nprofile = \"rfc9309\"\ncorpus = \"0\"\n",
    )
    .unwrap();
    let out = gate(&other, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("is the baseline of `reference`"),
        "{stderr}"
    );
    assert!(stderr.contains("fix:"), "{stderr}");

    let out = gate(&other, &["--profile", "google"]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));

    let malformed = dir.path().join("bad.toml");
    std::fs::write(&malformed, "implementation = \"x\"\nprofile = [\n").unwrap();
    let out = gate(&malformed, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("{}:", malformed.display())),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");

    let out = reptest(&[
        "gate",
        "--impl",
        "all",
        "--baseline",
        other.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(text(&out.stderr).contains("exactly one implementation"));

    let out = reptest(&["gate", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for word in [
        "regression",
        "ratchet",
        "junit",
        "github",
        "--write-baseline",
    ] {
        assert!(help.contains(word), "--help lacks {word}:\n{help}");
    }
}

/// An unknown --impl is the first error, with the nearest known name: the commands
/// suggested for a missing baseline would name it.
#[test]
fn an_unknown_implementation_is_named_before_any_command_is_suggested() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.toml");
    for more in [&[][..], &["--write-baseline"][..]] {
        let mut args = vec!["gate", "--impl", "rust-robots-tx"];
        args.extend(["--baseline", missing.to_str().unwrap()]);
        args.extend(more);
        let out = reptest(&args);
        assert_eq!(out.status.code(), Some(2), "{}", show(&out));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(
                "unknown implementation `rust-robots-tx` (did you mean `rust-robots-txt`"
            ),
            "{stderr}"
        );
        assert!(stderr.contains("known: reference"), "{stderr}");
        assert!(!stderr.contains("reptest gate --impl"), "{stderr}");
        assert!(!missing.exists());
    }
}

/// One gate run writes several formats: JUnit to a file and GitHub annotations to
/// stdout, from the same corpus run.
#[test]
fn one_run_writes_several_formats() {
    let (dir, baseline) = recorded();
    let junit = dir.path().join("junit.xml");
    let out = gate(
        &baseline,
        &[
            "--report",
            &format!("junit={}", junit.display()),
            "--report",
            "github",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let xml = std::fs::read_to_string(&junit).expect("the JUnit file");
    let doc = roxmltree::Document::parse(&xml).expect("valid XML");
    assert_eq!(doc.root_element().tag_name().name(), "testsuites");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("::notice title="), "{stdout}");
    assert!(
        stdout.contains(&format!("report: {}", junit.display())),
        "{stdout}"
    );
    // A bad format is a usage error that lists the known ones.
    let bad = gate(&baseline, &["--report", "xml=out.xml"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("known: human, junit, github"),
        "{}",
        show(&bad)
    );
}

/// A regression is understandable without the corpus: every format shows the body in
/// visible notation, why, the requirement's text and the command for the whole case.
#[test]
fn a_regression_explains_itself_in_every_format() {
    let (dir, baseline) = recorded();
    let moved = inject_regression(&baseline);
    let case = moved.split_once('/').unwrap().0.to_string();
    let junit = dir.path().join("j.xml");
    let out = gate(
        &baseline,
        &[
            "--report",
            "human",
            "--report",
            "github",
            "--report",
            &format!("junit={}", junit.display()),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let stdout = text(&out.stdout);
    let xml = std::fs::read_to_string(&junit).unwrap();
    let show_case = format!("reptest corpus show {case}");
    // Human: plain lines.
    assert!(stdout.contains("body (visible notation):\n"), "{stdout}");
    assert!(stdout.contains("      why: "), "{stdout}");
    assert!(stdout.contains("      requirement "), "{stdout}");
    assert!(stdout.contains(&show_case), "{stdout}");
    // GitHub: the annotation carries the same lines, newline-encoded.
    let title = moved.replace('%', "%25").replace(':', "%3A");
    let annotation = stdout
        .lines()
        .find(|l| l.starts_with("::error ") && l.contains(&title))
        .unwrap_or_else(|| panic!("an ::error for {moved}: {stdout}"));
    assert!(
        annotation.contains("%0Awhy: ") && annotation.contains(&show_case),
        "{annotation}"
    );
    // JUnit: in the failure's text.
    assert!(
        xml.contains("body (visible notation):") && xml.contains(&show_case),
        "{xml}"
    );
}

/// Baselines record the corpus version, and one from another major version is refused
/// with the fix; another minor version is fine.
#[test]
fn a_baseline_from_another_major_corpus_version_is_refused() {
    let (_dir, baseline) = recorded();
    let version = std::fs::read_to_string(reptest_corpus::default_dir().join("VERSION"))
        .unwrap()
        .trim()
        .to_string();
    let text = std::fs::read_to_string(&baseline).unwrap();
    assert!(
        text.contains(&format!("corpus_version = \"{version}\"")),
        "{text}"
    );
    let major: u64 = version.split('.').next().unwrap().parse().unwrap();
    let other_minor = text.replace(&version, &format!("{major}.999.0"));
    std::fs::write(&baseline, other_minor).unwrap();
    let out = gate(&baseline, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let other_major = text.replace(&version, &format!("{}.0.0", major + 1));
    std::fs::write(&baseline, other_major).unwrap();
    let out = gate(&baseline, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let stderr = text_of(&out.stderr);
    assert!(
        stderr.contains("was recorded against corpus") && stderr.contains("--write-baseline"),
        "{stderr}"
    );
}

/// A baseline that reptest recorded for the reference on corpus 2.1.0, with its
/// positional ids (`case/N`): refused as it is, with the command that migrates it;
/// migrated, every id is a query of today's corpus, and the gate passes on it.
#[test]
fn an_old_baseline_migrates_and_the_gate_passes_on_it() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reference-2.1.0.toml");
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("reptest-baseline.toml");
    std::fs::copy(&fixture, &baseline).unwrap();
    let file = baseline.to_str().unwrap();
    let old = read(&baseline);
    let old_count = ids(&old, "passed").len() + ids(&old, "unsupported").len();
    assert!(ids(&old, "passed")
        .iter()
        .all(|id| reptest_corpus::names::is_positional(id)));
    let gate_reference = || reptest(&["gate", "--impl", "reference", "--baseline", file]);
    let out = gate_reference();
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("positional query ids")
            && stderr.contains(&format!("--migrate-baseline {file}")),
        "{stderr}"
    );

    let out = reptest(&["gate", "--migrate-baseline", file]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(
        text(&out.stdout).starts_with(&format!("migrated {file}: ")),
        "{}",
        show(&out)
    );
    let migrated = read(&baseline);
    let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
    let now: std::collections::BTreeSet<&str> =
        corpus.queries().map(|(_, q)| q.id.as_str()).collect();
    let mut all = ids(&migrated, "passed");
    all.extend(ids(&migrated, "unsupported"));
    all.extend(known_failure_ids(&migrated));
    for id in &all {
        assert!(
            now.contains(id.as_str()),
            "{id} is not a query of the corpus"
        );
    }
    let dropped = text(&out.stdout).matches("\n  dropped ").count();
    assert_eq!(
        all.len() + dropped,
        old_count + known_failure_ids(&old).len()
    );
    assert_eq!(migrated["implementation"].as_str(), Some("reference"));
    assert_eq!(migrated["corpus_version"].as_str(), corpus.version());

    let out = gate_reference();
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(
        text(&out.stdout).contains("\nPASS: 0 regressions, 0 stale"),
        "{}",
        show(&out)
    );
    // A baseline with today's ids has nothing to migrate.
    let out = reptest(&["gate", "--migrate-baseline", file]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(
        text(&out.stderr).contains("nothing to migrate"),
        "{}",
        show(&out)
    );
}

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
