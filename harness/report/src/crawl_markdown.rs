//! The crawler view ([`Report::crawler_view`]) in Markdown, for the summary: one table of
//! crawlers by access topic, then per crawler each MUST it breaks with an example query
//! and the crawl's request log.

use super::{Broken, CrawlerView, Report};
use crate::pieces::markdown::{cell, code, code_cell};
use std::fmt::Write as _;

/// The crawler section of the summary (nothing when the report has no crawler).
pub(crate) fn section(out: &mut String, report: &Report) {
    let Some(view) = report.crawler_view() else {
        return;
    };
    let _ = writeln!(
        out,
        "## Crawlers over HTTP

Each crawler ran on the loopback site against the cases that describe how the robots.txt was fetched, a site of its own per case and agent (most crawlers take many sites per process); a page it fetched is `allowed`, one it left is `disallowed`. Per topic of RFC 9309 §2.3–§2.5, its MUST queries: `ok N` when all N judged passed, `broken F/N` when F failed, `—` when none was judged. Below the table, each MUST it breaks, with one query and what it fetched, in order.\n"
    );
    table(out, report, &view);
    for row in &view.rows {
        if row.broken.is_empty() {
            continue;
        }
        let name = &report.implementations[row.implementation].name;
        let _ = writeln!(out, "### {}\n", code(name));
        for broken in &row.broken {
            evidence(out, broken);
        }
        let _ = writeln!(out);
    }
}

fn table(out: &mut String, report: &Report, view: &CrawlerView<'_>) {
    let _ = write!(out, "| crawler | version |");
    for topic in &view.topics {
        let _ = write!(out, " {} ({}) |", topic.label(), topic.section());
    }
    let _ = write!(out, "\n| --- | --- |");
    for _ in &view.topics {
        let _ = write!(out, " --- |");
    }
    let _ = writeln!(out);
    for row in &view.rows {
        let entry = &report.implementations[row.implementation];
        let _ = write!(
            out,
            "| {} | {} |",
            code_cell(&entry.name),
            cell(&entry.version)
        );
        for topic in &row.cells {
            if topic.failed > 0 {
                let _ = write!(out, " **{}** |", topic.text());
            } else {
                let _ = write!(out, " {} |", topic.text());
            }
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out);
}

/// One broken MUST: the topic, the query, the verdict, the crawl's requests.
fn evidence(out: &mut String, broken: &Broken<'_>) {
    let (expected, got) = (broken.expected(), broken.got());
    let _ = writeln!(
        out,
        "- **{}** ({}): on {} ({}), {} as {} must be {expected}; it {got}.",
        broken.topic.label(),
        broken.topic.section(),
        code(&broken.case.id),
        cell(broken.case.fetch.as_deref().unwrap_or("")),
        code(&broken.query.url),
        code(&broken.query.agent),
    );
    if broken.log.is_empty() {
        let _ = writeln!(out, "  (no request log in this report)");
    } else {
        // A fence longer than any backtick run in the paths as sent.
        let longest = broken
            .log
            .iter()
            .flat_map(|line| line.split(|c| c != '`'))
            .map(str::len)
            .max()
            .unwrap_or(0);
        let fence = "`".repeat(longest.max(2) + 1);
        let _ = writeln!(out, "  Requests, in order:\n\n  {fence}text");
        for line in &broken.log {
            let _ = writeln!(out, "  {line}");
        }
        let _ = writeln!(out, "  {fence}");
    }
}
