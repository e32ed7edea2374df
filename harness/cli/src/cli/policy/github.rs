//! The GitHub Actions report of `reptest policy`: workflow commands that annotate the
//! robots.txt at the deciding line.

use super::expect::verdict_word;
use super::Report;
use reptest::gate::{github_data, github_property};
use std::fmt::Write as _;

/// `::notice` for each fetch note, `::error` for each expectation that does not hold,
/// `::warning` for each expectation other parsers read otherwise and each lint warning,
/// then a `::notice` with the count. Each carries `line=` when a line of the file decided.
pub(super) fn render(report: &Report<'_>) -> String {
    let mut out = String::new();
    for note in &report.source.notes {
        command(&mut out, "notice", report, None, "fetch", note.trim());
    }
    for j in report.judged.iter().filter(|j| !j.holds) {
        let note = j.note.as_ref().map_or(String::new(), |n| format!(". {n}"));
        let message = format!(
            "expected {}, RFC 9309 reads {}: {}{note}",
            verdict_word(j.allowed),
            verdict_word(!j.allowed),
            j.reason
        );
        let title = format!("{} {}", j.agent, j.url);
        command(&mut out, "error", report, j.line, &title, &message);
    }
    for j in report.judged.iter().filter(|j| !j.others.is_empty()) {
        let reading = super::text::other_reading(j);
        command(
            &mut out,
            "warning",
            report,
            j.line,
            "read otherwise by other parsers",
            &reading,
        );
    }
    for w in &report.warnings {
        command(
            &mut out,
            "warning",
            report,
            Some(w.line),
            "lint",
            &super::warning_text(w),
        );
    }
    let summary = format!(
        "{} of {} expectations hold",
        report.judged.len() - report.failed(),
        report.judged.len()
    );
    let _ = writeln!(
        out,
        "::notice title=reptest policy::{}",
        github_data(&summary)
    );
    out
}

/// One workflow command on the robots.txt (at `line`, if any).
fn command(
    out: &mut String,
    level: &str,
    report: &Report<'_>,
    line: Option<usize>,
    title: &str,
    message: &str,
) {
    let line = line.map_or(String::new(), |l| format!(",line={l}"));
    let _ = writeln!(
        out,
        "::{level} file={}{line},title={}::{}",
        github_property(&report.args.robots),
        github_property(&format!("reptest policy: {title}")),
        github_data(message)
    );
}
