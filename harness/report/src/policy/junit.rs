//! The JUnit XML report of `reptest policy`, for CI test reporters (written with
//! [`crate::junit`]).

use super::{other_reading, verdict_word, warning_text, Judged, Report};
use crate::junit::{self, Suite, TestCase, Verdict};

/// One `<testcase>` per expectation (with `file` and `line` of the deciding rule, a
/// `<failure>` when it does not hold, and the other parsers' readings in its
/// `<system-out>`); the fetch notes and lint warnings in the suite's `<system-out>`.
pub fn render(report: &Report<'_>) -> String {
    let mut out = String::new();
    junit::open(
        &mut out,
        &Suite {
            name: &format!("reptest policy: {}", report.robots),
            tests: report.judged.len(),
            failures: report.failed(),
            skipped_and_time: None,
            name_on_testsuites: false,
        },
    );
    for j in &report.judged {
        testcase(report, j).write(&mut out);
    }
    let mut notes: Vec<String> = report.notes.iter().map(|n| n.trim().to_string()).collect();
    notes.extend(
        report
            .warnings
            .iter()
            .map(|w| format!("lint warning: {}", warning_text(w))),
    );
    if !notes.is_empty() {
        junit::system_out(&mut out, &notes.join("\n"));
    }
    junit::close(&mut out);
    out
}

/// One expectation as a `<testcase>`.
fn testcase(report: &Report<'_>, j: &Judged) -> TestCase {
    let verdict = if j.holds {
        Verdict::Passed
    } else {
        let note = j.note.as_ref().map_or(String::new(), |n| format!("\n{n}"));
        Verdict::Failure {
            message: format!(
                "expected {}, RFC 9309 reads {}",
                verdict_word(j.allowed),
                verdict_word(!j.allowed)
            ),
            kind: None,
            detail: format!("{}{note}", j.reason),
        }
    };
    TestCase {
        classname: "reptest.policy".into(),
        name: format!("{} {} {}", verdict_word(j.allowed), j.agent, j.url),
        location: j.line.map(|line| (report.robots.to_string(), line)),
        verdict,
        system_out: (!j.others.is_empty())
            .then(|| format!("read otherwise by other parsers: {}", other_reading(j))),
    }
}
