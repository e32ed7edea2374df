//! The text report of `reptest policy --audit`.

use super::{class_counts, class_word, deciding, other_classes, Audit, Row};
use crate::policy::lint::Level;
use std::fmt::Write as _;

/// The crawler table, the other parsers' classes, the findings and the verdict.
pub fn render(audit: &Audit<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "reptest policy --audit: {}", audit.robots);
    for note in audit.notes {
        let _ = writeln!(out, "{note}");
    }
    table(&mut out, audit);
    divergences(&mut out, audit);
    registry(&mut out, audit);
    findings(&mut out, audit);
    let _ = writeln!(
        out,
        "\nAI crawlers ({}): {}",
        audit.rows.iter().filter(|r| r.crawler.ai).count(),
        class_counts(audit, Some(true))
    );
    let _ = writeln!(
        out,
        "{}: {} error(s), {} warning(s), {} note(s)",
        if audit.failed() { "FAIL" } else { "PASS" },
        audit.count(Level::Error),
        audit.count(Level::Warning),
        audit.count(Level::Note)
    );
    out
}

/// One line per crawler, in columns.
fn table(out: &mut String, audit: &Audit<'_>) {
    let width = |f: &dyn Fn(&Row) -> usize, min: usize| {
        audit.rows.iter().map(f).max().unwrap_or(0).max(min)
    };
    let token = width(&|r| r.crawler.token.len(), 5);
    let operator = width(&|r| r.crawler.operator.chars().count().min(24), 8);
    let _ = writeln!(
        out,
        "\n{} crawlers, as RFC 9309 reads the file (the reference):\n  {:<token$}  {:<operator$}  {:<14}  {:<20}  DECIDED BY",
        audit.rows.len(),
        "TOKEN",
        "OPERATOR",
        "PURPOSE",
        "CLASS"
    );
    for r in &audit.rows {
        let op: String = r.crawler.operator.chars().take(24).collect();
        let mark = if r.others.is_empty() { "" } else { "  *" };
        let _ = writeln!(
            out,
            "  {:<token$}  {op:<operator$}  {:<14}  {:<20}  {}{mark}",
            r.crawler.token,
            r.crawler.purpose.word(),
            class_word(r.class),
            deciding(r)
        );
    }
}

/// The crawlers some other parser classes otherwise (marked `*` in the table).
fn divergences(out: &mut String, audit: &Audit<'_>) {
    if audit.compared.is_empty() {
        let _ = writeln!(out, "\nno other parser compared");
        return;
    }
    let differ: Vec<&Row> = audit.rows.iter().filter(|r| !r.others.is_empty()).collect();
    let _ = writeln!(
        out,
        "\n* as {} other parser(s) read the file ({}): {} crawler(s) get another class",
        audit.compared.len(),
        audit.compared.join(", "),
        differ.len()
    );
    for r in differ {
        let _ = writeln!(
            out,
            "  {}: RFC 9309 {}; {}",
            r.crawler.token,
            class_word(r.class),
            other_classes(r)
        );
    }
}

/// What the registry package knows of the tokens.
fn registry(out: &mut String, audit: &Audit<'_>) {
    let Some(reg) = &audit.registry else {
        return;
    };
    let unknown: Vec<&str> = audit
        .rows
        .iter()
        .filter(|r| r.registry.as_ref().is_some_and(Vec::is_empty))
        .map(|r| r.crawler.token.as_str())
        .collect();
    let _ = writeln!(
        out,
        "\ncrawler-user-agents {} ({} patterns) knows {} of the {} tokens{}{}",
        reg.version,
        reg.patterns,
        audit.rows.len() - unknown.len(),
        audit.rows.len(),
        if unknown.is_empty() { "" } else { "; not: " },
        unknown.join(", ")
    );
}

/// The lints' findings.
fn findings(out: &mut String, audit: &Audit<'_>) {
    let _ = writeln!(out, "\nlints ({} finding(s)):", audit.findings.len());
    for f in &audit.findings {
        let at = f.line.map_or(String::new(), |l| format!("line {l}: "));
        let _ = writeln!(
            out,
            "  {:<7} {:<20} {at}{}",
            f.level.word(),
            f.id,
            f.message
        );
    }
    if !audit.allowed.is_empty() {
        let _ = writeln!(out, "  (allowed: {})", audit.allowed.join(", "));
    }
}
