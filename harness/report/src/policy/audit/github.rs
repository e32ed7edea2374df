//! The GitHub Actions report of `reptest policy --audit`: workflow commands (written
//! with [`crate::github`]) on the robots.txt's lines.

use super::{class_counts, class_word, deciding, other_classes, Audit};
use crate::github::{Annotation, Level};
use crate::policy::lint::Level as LintLevel;

/// `::notice` per fetch note, one annotation per finding at its line (error, warning,
/// notice for a note), a `::warning` per crawler another parser classes otherwise, then
/// a `::notice` with the AI crawlers' classes and the counts.
pub fn render(audit: &Audit<'_>) -> String {
    let mut out = String::new();
    let mut annotate = |level, line, title: &str, message: &str| {
        Annotation {
            level,
            file: Some(audit.robots),
            line,
            title: &format!("reptest policy: {title}"),
            message,
        }
        .write(&mut out);
    };
    for note in audit.notes {
        annotate(Level::Notice, None, "fetch", note.trim());
    }
    for f in &audit.findings {
        let level = match f.level {
            LintLevel::Error => Level::Error,
            LintLevel::Warning => Level::Warning,
            LintLevel::Note => Level::Notice,
        };
        annotate(level, f.line, f.id, &f.message);
    }
    for r in audit.rows.iter().filter(|r| !r.others.is_empty()) {
        let message = format!(
            "{}: RFC 9309 {} ({}); {}",
            r.crawler.token,
            class_word(r.class),
            deciding(r),
            other_classes(r)
        );
        annotate(
            Level::Warning,
            r.line.or(r.group),
            "read otherwise by other parsers",
            &message,
        );
    }
    let summary = format!(
        "{} crawlers; AI crawlers: {}; {} error(s), {} warning(s), {} note(s)",
        audit.rows.len(),
        class_counts(audit, Some(true)),
        audit.count(LintLevel::Error),
        audit.count(LintLevel::Warning),
        audit.count(LintLevel::Note)
    );
    Annotation {
        level: Level::Notice,
        file: None,
        line: None,
        title: "reptest policy --audit",
        message: &summary,
    }
    .write(&mut out);
    out
}
