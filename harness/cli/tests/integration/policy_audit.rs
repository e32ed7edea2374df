//! `reptest policy --audit`: the crawler table (text, JSON, GitHub, JUnit), the lints
//! naming each mistake of the worked examples of docs/policy.md, `--allow`, the
//! registry cross-check, and inputs that must not make it panic.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const REPTEST: &str = env!("CARGO_BIN_EXE_reptest");

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(name)
}

/// `reptest policy --audit --robots ROBOTS --impl none MORE...`, with no registry
/// unless MORE names one.
fn audit(robots: &Path, more: &[&str]) -> Output {
    let none = common::temp_dir("policy-audit", "no-registry").join("absent.json");
    let mut args = vec!["policy", "--audit", "--robots", robots.to_str().unwrap()];
    if !more.contains(&"--impl") {
        args.extend(["--impl", "none"]);
    }
    if !more.contains(&"--registry") {
        args.extend(["--registry", none.to_str().unwrap()]);
    }
    Command::new(REPTEST)
        .args(args)
        .args(more)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn json(robots: &Path, more: &[&str]) -> serde_json::Value {
    let out = audit(robots, &[&["--format", "json"], more].concat());
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// The lint ids found, with their lines.
fn lints(report: &serde_json::Value) -> Vec<(String, Option<u64>)> {
    report["lints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["id"].as_str().unwrap().to_string(), l["line"].as_u64()))
        .collect()
}

fn crawler<'a>(report: &'a serde_json::Value, token: &str) -> &'a serde_json::Value {
    report["crawlers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["token"] == token)
        .unwrap_or_else(|| panic!("{token} is in the table"))
}

#[test]
fn the_table_classes_every_known_crawler_with_its_deciding_lines() {
    let report = json(&example("mistakes/bookshop.txt"), &[]);
    assert_eq!(report["format"], "reptest-policy-audit/1");
    let crawlers = report["crawlers"].as_array().unwrap();
    assert!(crawlers.len() >= 60, "{}", crawlers.len());
    assert!(report["summary"]["ai_crawlers"].as_u64().unwrap() >= 25);
    // Googlebot reads only its own group (line 10): /assets/ (line 11) is its one rule.
    let google = crawler(&report, "Googlebot");
    assert_eq!(google["class"], "partially restricted");
    assert_eq!(google["group_line"], 10);
    assert_eq!(google["rule_line"], 11);
    assert_eq!(google["operator"], "Google");
    assert_eq!(google["purpose"], "search");
    // GPTBot has no group: the `*` group (line 3) decides, by its first Disallow.
    let gpt = crawler(&report, "GPTBot");
    assert_eq!(gpt["class"], "partially restricted");
    assert_eq!(
        (gpt["group_line"].as_u64(), gpt["rule_line"].as_u64()),
        (Some(3), Some(4))
    );
    assert_eq!(gpt["ai"], true);
    assert!(gpt["docs"].as_str().unwrap().starts_with("https://"));
    let out = audit(&example("mistakes/bookshop.txt"), &[]);
    let table = text(&out.stdout);
    assert!(
        table.contains("Googlebot") && table.contains("group line 10, rule line 11"),
        "{table}"
    );
}

#[test]
fn the_bookshop_mistakes_are_each_named() {
    let report = json(&example("mistakes/bookshop.txt"), &[]);
    let found = lints(&report);
    for expected in [
        ("crawl-delay-ignored", Some(7)),
        ("star-rules-dropped", Some(10)),
        ("render-blocked", Some(11)),
        ("noindex-ignored", Some(14)),
        ("sitemap-url", Some(15)),
    ] {
        assert!(
            found.contains(&(expected.0.to_string(), expected.1)),
            "{expected:?} in {found:?}"
        );
    }
    let dropped = report["lints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "star-rules-dropped")
        .map(|l| &l["message"])
        .unwrap();
    assert!(
        dropped
            .as_str()
            .unwrap()
            .contains("`Disallow: /checkout/` (line 4)"),
        "{dropped}"
    );
}

#[test]
fn five_ai_groups_repeating_allow_are_traps_that_later_leak() {
    let traps = lints(&json(&example("mistakes/ai-groups.txt"), &[]));
    assert_eq!(
        traps,
        [5, 8, 11, 14, 17].map(|l| ("trap-group".to_string(), Some(l)))
    );
    let later = json(&example("mistakes/ai-groups-later.txt"), &[]);
    assert_eq!(
        lints(&later),
        [7, 10, 13, 16, 19].map(|l| ("star-rules-dropped".to_string(), Some(l)))
    );
    assert_eq!(crawler(&later, "GPTBot")["class"], "unrestricted");
    assert_eq!(
        crawler(&later, "Bytespider")["class"],
        "partially restricted"
    );
}

#[test]
fn allow_silences_a_lint_and_an_unknown_id_is_refused() {
    let bookshop = example("mistakes/bookshop.txt");
    let quiet = json(
        &bookshop,
        &["--allow", "crawl-delay-ignored,noindex-ignored"],
    );
    let found = lints(&quiet);
    assert!(!found
        .iter()
        .any(|(id, _)| id == "crawl-delay-ignored" || id == "noindex-ignored"));
    assert!(found.iter().any(|(id, _)| id == "sitemap-url"));
    assert_eq!(
        quiet["allowed"],
        serde_json::json!(["crawl-delay-ignored", "noindex-ignored"])
    );
    let out = audit(&bookshop, &["--allow", "no-such-lint"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("trap-group"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn an_error_level_lint_fails_and_every_format_carries_the_lines() {
    let dir = common::temp_dir("policy-audit", "size");
    let robots = dir.join("robots.txt");
    let mut body = b"User-agent: *\nDisallow: /\n".to_vec();
    body.resize(600 * 1024, b'#');
    std::fs::write(&robots, body).unwrap();
    let out = audit(&robots, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("size-over-limit"));
    assert!(text(&out.stdout).contains("whole-site-block"));
    let github = text(&audit(&robots, &["--format", "github"]).stdout);
    assert!(github.contains("::error file="), "{github}");
    assert!(
        github.contains("title=reptest policy%3A size-over-limit"),
        "{github}"
    );
    assert!(
        github.contains("::notice file=") && github.contains(",line=2,"),
        "{github}"
    );
    let xml = text(&audit(&robots, &["--format", "junit"]).stdout);
    let doc = roxmltree::Document::parse(&xml).expect("valid XML");
    let failures: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .collect();
    assert_eq!(failures.len(), 1, "{xml}");
    assert!(
        doc.descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .count()
            >= 62
    );
}

#[test]
fn the_example_site_passes_as_ci_checks_it() {
    let site = example("site/robots.txt");
    let out = audit(&site, &["--format", "github"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let report = json(&site, &[]);
    assert_eq!(report["summary"]["errors"], 0);
    assert_eq!(crawler(&report, "GPTBot")["class"], "fully restricted");
    assert_eq!(
        crawler(&report, "OAI-SearchBot")["class"],
        "partially restricted"
    );
    let expect = Command::new(REPTEST)
        .args([
            "policy",
            "--impl",
            "none",
            "--robots",
            site.to_str().unwrap(),
        ])
        .args([
            "--expect",
            example("site/robots-policy.toml").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(expect.status.code(), Some(0), "{}", text(&expect.stdout));
}

#[test]
fn the_registry_cross_checks_the_tokens_and_its_absence_is_said_once() {
    let dir = common::temp_dir("policy-audit", "registry");
    let registry = dir.join("crawler-user-agents.json");
    std::fs::write(
        &registry,
        r#"[{"pattern": "GPTBot", "instances": []},
            {"pattern": "[cC]laude[bB]ot", "instances": ["Mozilla/5.0 (compatible; ClaudeBot/1.0)"]},
            {"pattern": "(?<=x)lookbehind", "instances": []}]"#,
    )
    .unwrap();
    let robots = example("site/robots.txt");
    let report = json(&robots, &["--registry", registry.to_str().unwrap()]);
    assert_eq!(report["registry"]["patterns"], 3);
    assert_eq!(
        crawler(&report, "ClaudeBot")["registry_patterns"],
        serde_json::json!(["[cC]laude[bB]ot"])
    );
    assert_eq!(
        crawler(&report, "CCBot")["registry_patterns"],
        serde_json::json!([])
    );
    let out = audit(&robots, &["--registry", registry.to_str().unwrap()]);
    assert!(
        text(&out.stdout).contains("knows 2 of the"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
    let absent = audit(&robots, &[]);
    let stderr = text(&absent.stderr);
    assert_eq!(
        stderr
            .matches("bash harness/external/setup crawler-list")
            .count(),
        1,
        "{stderr}"
    );
    assert_eq!(json(&robots, &[])["registry"], serde_json::Value::Null);
}

#[test]
fn no_input_makes_it_panic() {
    let dir = common::temp_dir("policy-audit", "inputs");
    let mut huge = b"User-agent: *\n".to_vec();
    for i in 0..60_000 {
        huge.extend(format!("Disallow: /p{i}*q.js\nAllow: /p{i}\n").as_bytes());
    }
    huge.extend(b"User-agent: GPTBot\nAllow: /\n");
    let inputs: [(&str, Vec<u8>); 4] = [
        ("empty", Vec::new()),
        ("binary", (0..=255u8).cycle().take(70_000).collect()),
        (
            "bom",
            b"\xEF\xBB\xBFUser-agent: GPTBot\nDisallow: /\n".to_vec(),
        ),
        ("huge", huge),
    ];
    for (name, body) in inputs {
        let robots = dir.join(name);
        std::fs::write(&robots, body).unwrap();
        let started = std::time::Instant::now();
        let out = audit(&robots, &["--format", "json"]);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{name}: {}",
            text(&out.stderr)
        );
        assert!(
            started.elapsed().as_secs() < 60,
            "{name} took {:?}",
            started.elapsed()
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        if name == "bom" {
            assert_eq!(crawler(&report, "GPTBot")["class"], "fully restricted");
        }
    }
}

#[test]
fn expect_or_audit_is_required() {
    let robots = example("site/robots.txt");
    let out = Command::new(REPTEST)
        .args(["policy", "--robots", robots.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let help = Command::new(REPTEST)
        .args(["policy", "--help"])
        .output()
        .unwrap();
    let help = text(&help.stdout);
    assert!(
        help.contains("reptest policy --audit --robots public/robots.txt"),
        "{help}"
    );
    assert!(help.contains("fully restricted"), "{help}");
}

#[test]
fn docs_list_every_lint_with_its_level_and_source() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/policy.md"))
            .unwrap();
    for lint in reptest::report::policy::lint::LINTS {
        let row = format!("| `{}` | {} |", lint.id, lint.level.word());
        assert!(docs.contains(&row), "docs/policy.md lacks the row {row}");
    }
}
