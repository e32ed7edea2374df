//! `survey.html`: one self-contained page (no script, no external resource) with the
//! pairwise heatmap as a coloured table, the headline, the status table, the
//! disagreement with the decided verdict, the questions and the new groups.

use std::fmt::Write;

use super::json::{new_groups, question_rows, status_rows};
use super::{AGREEMENT_MEANS, DECIDED_MEANS, MISSING_KINDS};
use crate::pieces::colour::disagreement as colour;
use crate::pieces::html::{escape as esc, pre};
use crate::pieces::numbers::{count, percent, share};
use reptest_survey::engine::Survey;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:90em;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.25em .5em}\
td.n{text-align:right}th.r{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap}\
td.h{text-align:center;min-width:3.2em}pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:20em}\
.big{font-size:2em;font-weight:bold}";

/// The HTML page of `survey`.
pub fn render(survey: &Survey) -> String {
    let mut page = String::new();
    let _ = write_page(&mut page, survey);
    page
}

/// The page, section by section.
fn write_page(page: &mut String, survey: &Survey) -> std::fmt::Result {
    write_head(page, survey)?;
    write_heatmap(page, survey)?;
    write_decided(page, survey)?;
    write_status_codes(page, survey)?;
    write_questions(page, survey)?;
    write_new(page, survey)?;
    super::provenance::write_html(page, survey)?;
    writeln!(page, "</body>\n</html>")?;
    Ok(())
}

/// The document head, the title, the headline agreement and the settings.
fn write_head(page: &mut String, survey: &Survey) -> std::fmt::Result {
    page.push_str("<!doctype html>\n<html lang=en>\n<head>\n<meta charset=utf-8>\n");
    writeln!(
        page,
        "<title>reptest survey</title>\n<style>{STYLE}</style>\n</head>\n<body>"
    )?;
    writeln!(page, "<h1>reptest survey</h1>")?;
    let (headline, of) = super::headline(survey);
    writeln!(
        page,
        "<p><span class=big>{}</span> {}</p>\n<p>{}</p>",
        esc(&headline),
        esc(&of),
        esc(AGREEMENT_MEANS)
    )?;
    writeln!(page, "<p>{}</p>", esc(&super::settings(survey)))
}

/// "Pairwise disagreement": the queries' disagreement as a coloured table.
fn write_heatmap(page: &mut String, survey: &Survey) -> std::fmt::Result {
    let implementations = &survey.header.implementations;
    writeln!(page, "<h2>Pairwise disagreement</h2>")?;
    writeln!(
        page,
        "<p>Row against column: of the queries both answered with a verdict, the share on which they differ (white 0 %, red 50 % or more).</p>\n<table>\n<tr><th></th>"
    )?;
    for entry in implementations {
        write!(page, "<th class=r>{}</th>", esc(&entry.name))?;
    }
    writeln!(page, "</tr>")?;
    for (entry, row) in implementations.iter().zip(&survey.tally.pairwise) {
        write!(page, "<tr><th>{}</th>", esc(&entry.name))?;
        for pair in row {
            let s = share(pair.queries_disagree, pair.queries);
            write!(
                page,
                "<td class=h style=\"background:{}\" title=\"{} of {} queries\">{}</td>",
                colour(s),
                pair.queries_disagree,
                pair.queries,
                esc(&percent(pair.queries_disagree, pair.queries).replace(" %", ""))
            )?;
        }
        writeln!(page, "</tr>")?;
    }
    writeln!(page, "</table>")
}

/// "Against the decided verdict": one row per implementation, then the tie-breaker note.
fn write_decided(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(
        page,
        "<h2>Against the decided verdict</h2>\n<p>{}</p>",
        esc(DECIDED_MEANS)
    )?;
    writeln!(page, "<table>\n<tr><th>implementation</th><th>version</th><th>queries</th><th>verdicts</th><th>missing</th><th>disagree: queries</th><th>disagree: files</th></tr>")?;
    for row in super::decided_rows(survey) {
        writeln!(
            page,
            "<tr><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n title=\"{MISSING_KINDS}: {}\">{}</td><td class=n style=\"background:{}\">{}</td><td class=n>{}</td></tr>",
            esc(row.name),
            esc(row.version),
            row.asked,
            row.verdicts,
            row.by_kind,
            row.missing,
            colour(row.share),
            esc(&row.queries.0),
            esc(&row.files.0)
        )?;
    }
    writeln!(page, "</table>\n<p>{}</p>", esc(&super::breaker(survey)))
}

/// "Status codes": the files and queries per status family and access method.
fn write_status_codes(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(page, "<h2>Status codes</h2>\n<table>\n<tr><th>status</th><th>files</th><th>access method (RFC 9309)</th><th>queries</th></tr>")?;
    for (family, branch, files, queries) in status_rows(survey) {
        writeln!(
            page,
            "<tr><td>{}</td><td class=n>{}</td><td>{}: {}</td><td class=n>{}</td></tr>",
            esc(&family),
            count(files),
            branch.label(),
            esc(branch.meaning()),
            count(queries)
        )?;
    }
    writeln!(page, "</table>")
}

/// "Questions": the split queries attributed to a question of the catalogue.
fn write_questions(page: &mut String, survey: &Survey) -> std::fmt::Result {
    let a = &survey.tally.agreement;
    writeln!(
        page,
        "<h2>Questions</h2>\n<p>{} of {} split queries attributed to a question of the catalogue.</p>",
        count(a.attributed),
        count(a.split)
    )?;
    writeln!(page, "<table>\n<tr><th>question</th><th></th><th>queries</th><th>files</th><th>on the minority side</th></tr>")?;
    for row in question_rows(survey) {
        let minority: Vec<String> = row
            .minority
            .iter()
            .map(|(name, n)| format!("{} {n}", esc(name)))
            .collect();
        writeln!(
            page,
            "<tr><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td>{}</td></tr>",
            esc(&row.id),
            esc(&row.text),
            count(row.queries),
            count(row.files),
            minority.join(", ")
        )?;
    }
    writeln!(page, "</table>")
}

/// "New": the split queries no question explains, by partition, with their examples.
fn write_new(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(
        page,
        "<h2>New</h2>\n<p>Split queries attributed to no question, by partition; examples {} (first 4 KiB, visible notation).</p>",
        if survey.tally.new_minimized { "with their minimized form where the split reproduces" } else { "not minimized" }
    )?;
    for group in new_groups(survey) {
        let e = &group.example;
        writeln!(
            page,
            "<h3>allowed: {} | disallowed: {}</h3>\n<p>{} queries in {} files. Example: host <code>{}</code>, agent <code>{}</code>, URL <code>{}</code> ({})</p>\n<pre>{}</pre>",
            esc(&group.allowed.join(", ")),
            esc(&group.disallowed.join(", ")),
            count(group.queries),
            count(group.files),
            esc(&e.host),
            esc(&e.agent),
            esc(&e.url),
            esc(&e.origin),
            pre(&e.body)
        )?;
        if let Some(m) = &group.minimized {
            writeln!(
                page,
                "<p>Minimized: agent <code>{}</code>, URL <code>{}</code></p>\n<pre>{}</pre>",
                esc(&m.agent),
                esc(&m.url),
                pre(&m.body)
            )?;
            if let Some(id) = &m.question {
                writeln!(page, "<p>Minimized, it matches {}.</p>", esc(id))?;
            }
        }
    }
    Ok(())
}
