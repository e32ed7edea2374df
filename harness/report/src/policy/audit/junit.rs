//! The JUnit XML report of `reptest policy --audit` (written with [`crate::junit`]).

use super::{class_word, deciding, other_classes, Audit, Row};
use crate::junit::{self, Suite, TestCase, Verdict};
use crate::policy::lint::{Finding, Level};

/// One `<testcase>` per crawler (its class and deciding lines in `<system-out>`, the
/// other parsers' classes too), then one per finding: a `<failure>` for an error, else
/// passed with the message in `<system-out>`.
pub fn render(audit: &Audit<'_>) -> String {
    let mut out = String::new();
    junit::open(
        &mut out,
        &Suite {
            name: &format!("reptest policy --audit: {}", audit.robots),
            tests: audit.rows.len() + audit.findings.len(),
            failures: audit.count(Level::Error),
            skipped_and_time: None,
            name_on_testsuites: false,
        },
    );
    for r in &audit.rows {
        crawler(audit, r).write(&mut out);
    }
    for f in &audit.findings {
        finding(audit, f).write(&mut out);
    }
    if !audit.notes.is_empty() {
        junit::system_out(&mut out, &audit.notes.join("\n"));
    }
    junit::close(&mut out);
    out
}

/// A crawler's `<testcase>`.
fn crawler(audit: &Audit<'_>, r: &Row) -> TestCase {
    let mut said = format!("RFC 9309: {} ({})", class_word(r.class), deciding(r));
    if !r.others.is_empty() {
        said.push_str(&format!("\nread otherwise: {}", other_classes(r)));
    }
    TestCase {
        classname: "reptest.policy.crawler".into(),
        name: format!(
            "{} ({}, {})",
            r.crawler.token,
            r.crawler.operator,
            r.crawler.purpose.word()
        ),
        location: r.line.map(|l| (audit.robots.to_string(), l)),
        verdict: Verdict::Passed,
        system_out: Some(said),
    }
}

/// A finding's `<testcase>`.
fn finding(audit: &Audit<'_>, f: &Finding) -> TestCase {
    let (verdict, system_out) = if f.level == Level::Error {
        let verdict = Verdict::Failure {
            message: f.id.to_string(),
            kind: Some("error"),
            detail: f.message.clone(),
        };
        (verdict, None)
    } else {
        (
            Verdict::Passed,
            Some(format!("{}: {}", f.level.word(), f.message)),
        )
    };
    TestCase {
        classname: "reptest.policy.lint".into(),
        name: match f.line {
            Some(l) => format!("{} line {l}", f.id),
            None => f.id.to_string(),
        },
        location: f.line.map(|l| (audit.robots.to_string(), l)),
        verdict,
        system_out,
    }
}
