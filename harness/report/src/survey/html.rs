//! `survey.html`: one self-contained page (no script, no external resource): the
//! headline, the figures inline ([`super::figures`]), the pairwise matrices with numbered
//! columns, the disagreement with the decided verdict, the status table, the questions
//! and the new groups. It fits a window 1,400 pixels wide: compact matrix cells, long
//! words wrapped, figures scaled down to the page, and a table too wide for the page
//! (dozens of implementations) scrolls on its own instead of widening the page.

use std::fmt::Write;

use super::figures::Figure;
use super::json::new_groups;
use super::{tables, AGREEMENT_MEANS, DECIDED_MEANS};
use crate::pieces::html::{escape as esc, pre};
use crate::pieces::numbers::count;
use crate::pieces::svg::inline;
use crate::pieces::table::Table;
use reptest_survey::engine::Survey;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;padding:0 1em;max-width:84em;color:#222}\
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;padding:.2em .4em}\
th{font-weight:600}td.n{text-align:right}td.h{text-align:right;font-size:12px;padding:.15em .25em}\
code{overflow-wrap:anywhere}pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:20em}\
.wide{max-width:100%;overflow-x:auto}figure{margin:1em 0}svg{max-width:100%;height:auto}\
figcaption{color:#555;font-size:13px}.big{font-size:2em;font-weight:bold}";

/// The HTML page of `survey`.
pub fn render(survey: &Survey) -> String {
    let mut page = String::new();
    let _ = write_page(&mut page, survey);
    page
}

/// The page, section by section.
fn write_page(page: &mut String, survey: &Survey) -> std::fmt::Result {
    write_head(page, survey)?;
    write_research(page, survey)?;
    write_pairwise(page, survey)?;
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
        "<meta name=viewport content=\"width=device-width\">\n<title>reptest survey</title>\n<style>{STYLE}</style>\n</head>\n<body>"
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

/// `figure` of `survey` inline with its caption, if the survey has it.
fn write_figure(page: &mut String, survey: &Survey, figure: Figure) -> std::fmt::Result {
    match figure.render(survey) {
        Some(svg) => writeln!(
            page,
            "<figure>\n{}<figcaption>{} (<code>{}</code>)</figcaption>\n</figure>",
            inline(&svg),
            esc(figure.caption()),
            esc(&figure.path())
        ),
        None => Ok(()),
    }
}

/// The site-level classes (headline, crawlers, figure), then the strata and the agent
/// classes: the tables of [`super::research_tables`].
fn write_research(page: &mut String, survey: &Survey) -> std::fmt::Result {
    use super::research::{intervals_means, sites_means, STRATA_MEANS};
    use super::research_tables as research;
    if !survey.tally.sites.crawlers.is_empty() {
        writeln!(page, "<h2>Site-level classes per crawler</h2>")?;
        writeln!(page, "<p>{}</p>", esc(&sites_means()))?;
        write_figure(page, survey, Figure::Sites)?;
        let sites = super::research::sites(survey);
        for table in [
            research::sites_headline(&sites),
            research::sites_crawlers(&sites),
            research::sites_differ(survey),
        ] {
            writeln!(page, "<h3>{}</h3>", esc(&table.title))?;
            write_table(page, &table)?;
        }
        writeln!(page, "<p>{}</p>", esc(&intervals_means(survey.header.seed)))?;
    }
    if survey.tally.strata.is_empty() {
        return Ok(());
    }
    writeln!(
        page,
        "<h2>Natural queries and probes</h2>\n<p>{}</p>",
        esc(STRATA_MEANS)
    )?;
    let strata = research::strata_tables(survey);
    for table in strata.into_iter().chain([research::agents(survey)]) {
        writeln!(page, "<h3>{}</h3>", esc(&table.title))?;
        write_table(page, &table)?;
    }
    Ok(())
}

/// `table` in a container that scrolls sideways if the table is wider than the page.
fn write_table(page: &mut String, table: &Table) -> std::fmt::Result {
    writeln!(page, "<div class=wide>\n{}</div>", table.html())
}

/// "Pairwise disagreement": the clustered figure, then the queries' and files'
/// matrices, columns numbered as the rows.
fn write_pairwise(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(page, "<h2>Pairwise disagreement</h2>")?;
    write_figure(page, survey, Figure::Pairwise)?;
    writeln!(
        page,
        "<p>Row against column, in %: of the queries both answered with a verdict, the share on which their verdicts differ; then, of the files on which both gave a verdict, the share with at least one such query (white 0, red 50 or more). Columns are numbered as the rows.</p>"
    )?;
    let tables = [
        ("Queries", tables::pairwise_queries(survey)),
        ("Files", tables::pairwise_files(survey)),
    ];
    for (title, table) in tables {
        writeln!(page, "<h3>{title}</h3>")?;
        write_table(page, &table)?;
    }
    Ok(())
}

/// "Against the decided verdict": one row per implementation, then the breaker's note.
fn write_decided(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(
        page,
        "<h2>Against the decided verdict</h2>\n<p>{}</p>",
        esc(DECIDED_MEANS)
    )?;
    write_table(page, &tables::implementations(survey))?;
    writeln!(page, "<p>{}</p>", esc(&super::breaker(survey)))
}

/// "Status codes": the files and queries per status family and access method.
fn write_status_codes(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(page, "<h2>Status codes</h2>")?;
    write_table(page, &tables::status(survey))
}

/// "Questions": the figure, then the split queries attributed to each question.
fn write_questions(page: &mut String, survey: &Survey) -> std::fmt::Result {
    let a = &survey.tally.agreement;
    writeln!(
        page,
        "<h2>Questions</h2>\n<p>{} of {} split queries attributed to a question of the catalogue.</p>",
        count(a.attributed),
        count(a.split)
    )?;
    write_figure(page, survey, Figure::Questions)?;
    write_table(page, &tables::questions(survey))
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
