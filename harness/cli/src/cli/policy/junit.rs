//! The JUnit XML report of `reptest policy`, for CI test reporters.

use super::expect::verdict_word;
use super::{Judged, Report};
use reptest::markup::escape as xml_escape;
use std::fmt::Write as _;

/// One `<testcase>` per expectation (with `file` and `line` of the deciding rule, a
/// `<failure>` when it does not hold, and the other parsers' readings in its
/// `<system-out>`); the fetch notes and lint warnings in the suite's `<system-out>`.
pub(super) fn render(report: &Report<'_>) -> String {
    let failures = report.failed();
    let n = report.judged.len();
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"{n}\" failures=\"{failures}\">\n  <testsuite name=\"reptest policy: {}\" tests=\"{n}\" failures=\"{failures}\">\n",
        xml_escape(&report.args.robots),
    );
    for j in &report.judged {
        testcase(&mut out, report, j);
    }
    let mut notes: Vec<String> = report
        .source
        .notes
        .iter()
        .map(|n| n.trim().to_string())
        .collect();
    notes.extend(
        report
            .warnings
            .iter()
            .map(|w| format!("lint warning: {}", super::warning_text(w))),
    );
    if !notes.is_empty() {
        let _ = writeln!(
            out,
            "    <system-out>{}</system-out>",
            xml_escape(&notes.join("\n"))
        );
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// One expectation as a `<testcase>`.
fn testcase(out: &mut String, report: &Report<'_>, j: &Judged) {
    let name = format!("{} {} {}", verdict_word(j.allowed), j.agent, j.url);
    let line = j.line.map_or(String::new(), |l| {
        format!(" file=\"{}\" line=\"{l}\"", xml_escape(&report.args.robots))
    });
    let _ = write!(
        out,
        "    <testcase classname=\"reptest.policy\" name=\"{}\"{line}",
        xml_escape(&name)
    );
    if j.holds && j.others.is_empty() {
        out.push_str("/>\n");
        return;
    }
    out.push_str(">\n");
    if !j.holds {
        let note = j.note.as_ref().map_or(String::new(), |n| format!("\n{n}"));
        let _ = writeln!(
            out,
            "      <failure message=\"{}\">{}</failure>",
            xml_escape(&format!(
                "expected {}, RFC 9309 reads {}",
                verdict_word(j.allowed),
                verdict_word(!j.allowed)
            )),
            xml_escape(&format!("{}{note}", j.reason))
        );
    }
    if !j.others.is_empty() {
        let _ = writeln!(
            out,
            "      <system-out>read otherwise by other parsers: {}</system-out>",
            xml_escape(&super::text::other_reading(j))
        );
    }
    out.push_str("    </testcase>\n");
}
