//! The crawler view ([`Report::crawler_view`]) as a section of the HTML page: the table
//! of crawlers by access topic with each crawler's wall time, then each MUST a crawler
//! breaks with its example query (linked to the matrix) and the crawl's request log.

use super::{Broken, Report};
use crate::pieces::html::escape as esc;
use std::fmt::Write as _;

/// The `view-crawlers` section.
pub(crate) fn section(page: &mut String, report: &Report) {
    page.push_str("<section id=view-crawlers class=view hidden>\n<h2>Crawlers over HTTP</h2>\n");
    let Some(view) = report.crawler_view() else {
        page.push_str(
            "<p class=note>No crawler in this report: crawlers are judged over HTTP on the \
             loopback site (<code>reptest run --impl crawlers</code>).</p>\n</section>\n",
        );
        return;
    };
    page.push_str(
        "<p class=note>Each crawler ran on the loopback site against the cases that describe \
         how the robots.txt was fetched, a site of its own per case and agent (most crawlers \
         take many sites per process): a page it fetched is allowed, one it left is \
         disallowed. Per topic of RFC 9309 §2.3–§2.5, its MUST \
         queries: <em>ok N</em> when all N judged passed, <em>broken F/N</em> when F failed. \
         The time is the crawler's wall time for the whole corpus (the crawlers run \
         together, so their times overlap). Below, each MUST it breaks, with one query and \
         what it fetched, in order.</p>\n",
    );
    page.push_str(
        "<div class=table-wrap><table class=\"scores crawlers\"><thead><tr><th>crawler</th><th>version</th><th>time</th>",
    );
    for topic in &view.topics {
        let _ = write!(
            page,
            "<th>{} <small>{}</small></th>",
            topic.label(),
            topic.section()
        );
    }
    page.push_str("</tr></thead><tbody>\n");
    for row in &view.rows {
        let entry = &report.implementations[row.implementation];
        let _ = write!(
            page,
            "<tr><th><a href=\"#fails={name}\">{name}</a></th><td>{version}</td><td>{seconds:.1} s</td>",
            name = esc(&entry.name),
            version = esc(&entry.version),
            seconds = entry.seconds
        );
        for topic in &row.cells {
            let class = match (topic.judged, topic.failed) {
                (0, _) => "none",
                (_, 0) => "ok",
                _ => "bad",
            };
            let _ = write!(page, "<td class=\"verdicts {class}\">{}</td>", topic.text());
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</tbody></table></div>\n");
    for row in view.rows.iter().filter(|row| !row.broken.is_empty()) {
        let name = &report.implementations[row.implementation].name;
        let _ = writeln!(
            page,
            "<h3><code>{}</code></h3>\n<ul class=crawl-evidence>",
            esc(name)
        );
        for broken in &row.broken {
            evidence(page, broken);
        }
        page.push_str("</ul>\n");
    }
    page.push_str("</section>\n");
}

/// One broken MUST as a list item: topic, query (linked), verdict, request log.
fn evidence(page: &mut String, broken: &Broken<'_>) {
    let (expected, got) = (broken.expected(), broken.got());
    let _ = write!(
        page,
        "<li><strong>{topic}</strong> ({section}): on <a href=\"#view=matrix&amp;q={id}\">{case}</a> \
         ({fetch}), <code>{url}</code> as <code>{agent}</code> must be {expected}; it {got}.",
        topic = broken.topic.label(),
        section = broken.topic.section(),
        id = esc(&broken.query.id),
        case = esc(&broken.case.id),
        fetch = esc(broken.case.fetch.as_deref().unwrap_or("")),
        url = esc(&broken.query.url),
        agent = esc(&broken.query.agent),
    );
    if broken.log.is_empty() {
        page.push_str(" <em>(no request log in this report)</em></li>\n");
        return;
    }
    page.push_str("<pre class=request-log>");
    for line in &broken.log {
        let _ = writeln!(page, "{}", esc(line));
    }
    page.push_str("</pre></li>\n");
}
