//! The GitHub Actions report of `reptest policy`: workflow commands (written with
//! [`crate::github`]) that annotate the robots.txt at the deciding line.

use super::{other_reading, verdict_word, warning_text, Report};
use crate::github::{Annotation, Level};

/// `::notice` for each fetch note, `::error` for each expectation that does not hold,
/// `::warning` for each expectation other parsers read otherwise and each lint warning,
/// then a `::notice` with the count. Each carries `line=` when a line of the file decided.
pub fn render(report: &Report<'_>) -> String {
    let mut out = String::new();
    let mut annotate = |level, line, title: &str, message: &str| {
        Annotation {
            level,
            file: Some(report.robots),
            line,
            title: &format!("reptest policy: {title}"),
            message,
        }
        .write(&mut out);
    };
    for note in report.notes {
        annotate(Level::Notice, None, "fetch", note.trim());
    }
    for j in report.judged.iter().filter(|j| !j.holds) {
        let note = j.note.as_ref().map_or(String::new(), |n| format!(". {n}"));
        let message = format!(
            "expected {}, RFC 9309 reads {}: {}{note}",
            verdict_word(j.allowed),
            verdict_word(!j.allowed),
            j.reason
        );
        annotate(
            Level::Error,
            j.line,
            &format!("{} {}", j.agent, j.url),
            &message,
        );
    }
    for j in report.judged.iter().filter(|j| !j.others.is_empty()) {
        let reading = other_reading(j);
        annotate(
            Level::Warning,
            j.line,
            "read otherwise by other parsers",
            &reading,
        );
    }
    for w in &report.warnings {
        annotate(Level::Warning, Some(w.line), "lint", &warning_text(w));
    }
    let summary = format!(
        "{} of {} expectations hold",
        report.judged.len() - report.failed(),
        report.judged.len()
    );
    Annotation {
        level: Level::Notice,
        file: None,
        line: None,
        title: "reptest policy",
        message: &summary,
    }
    .write(&mut out);
    out
}
