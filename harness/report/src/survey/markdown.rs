//! `README.md`: the survey for people to read, deterministic (no time stamp, no path).

use std::fmt::Write;

use super::json::new_groups;
use super::{figures, tables, AGREEMENT_MEANS, DECIDED_MEANS};
use crate::pieces::markdown::{fence_block, plain_code as inline};
use crate::pieces::numbers::{count, percent};
use reptest_survey::engine::Survey;
use reptest_survey::tally::{NewGroup, EXAMPLE_BODY_LIMIT};

/// The Markdown page of `survey`.
pub fn render(survey: &Survey) -> String {
    let mut page = String::new();
    let _ = write_page(&mut page, survey);
    page
}

/// The page, section by section.
fn write_page(page: &mut String, survey: &Survey) -> std::fmt::Result {
    write_summary(page, survey)?;
    super::research_markdown::write_sites(page, survey)?;
    super::research_markdown::write_strata(page, survey)?;
    write_status_codes(page, survey)?;
    write_decided(page, survey)?;
    write_pairwise(page, survey)?;
    write_questions(page, survey)?;
    write_new(page, survey)?;
    super::provenance::write_markdown(page, survey)
}

/// The title, the headline agreement, the settings, and the files not read whole.
fn write_summary(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(page, "# reptest survey\n")?;
    let (share, of) = super::headline(survey);
    writeln!(page, "**{share}** {of}\n")?;
    writeln!(page, "{AGREEMENT_MEANS}\n")?;
    writeln!(page, "{}\n", super::settings(survey))?;
    let f = &survey.tally.files;
    if f.skipped + f.cut_at_limit + f.cut_in_archive > 0 {
        writeln!(
            page,
            "{} entries skipped as unreadable; {} bodies cut at 1 MiB; {} stored incomplete by the archive.\n",
            count(f.skipped),
            count(f.cut_at_limit),
            count(f.cut_in_archive)
        )?;
    }
    Ok(())
}

/// "Status codes": the files and queries per status family and access method.
fn write_status_codes(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(page, "## Status codes\n")?;
    writeln!(
        page,
        "Files without a status (a directory or tar archive) are taken as fetched with 200. Only the files whose rules apply are surveyed.\n"
    )?;
    page.push_str(&tables::status(survey).markdown());
    Ok(())
}

/// "Against the decided verdict": one row per implementation, then the tie-breaker note.
fn write_decided(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(page, "\n## Against the decided verdict\n")?;
    writeln!(page, "{DECIDED_MEANS}\n")?;
    page.push_str(&tables::implementations(survey).markdown());
    writeln!(page, "\n{}", super::breaker(survey))
}

/// "Pairwise disagreement": the figure, the queries table, then the files table.
fn write_pairwise(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(page, "\n## Pairwise disagreement\n")?;
    writeln!(
        page,
        "Row against column: of the queries both answered with a verdict, the share on which their verdicts differ (then, below, of the files on which both gave a verdict, the share with at least one such query).\n"
    )?;
    write_figure(page, &figures::Figure::Pairwise)?;
    let tables = [
        ("Queries", tables::pairwise_queries(survey)),
        ("Files", tables::pairwise_files(survey)),
    ];
    for (title, table) in tables {
        writeln!(page, "{title}:\n\n{}", table.markdown())?;
    }
    Ok(())
}

/// A figure of `figures/`, as an image link with its caption as the alternative text.
pub(crate) fn write_figure(page: &mut String, figure: &figures::Figure) -> std::fmt::Result {
    writeln!(page, "![{}]({})\n", figure.caption(), figure.path())
}

/// "Questions": the split queries attributed to a question of the catalogue.
fn write_questions(page: &mut String, survey: &Survey) -> std::fmt::Result {
    let a = &survey.tally.agreement;
    writeln!(page, "## Questions\n")?;
    writeln!(
        page,
        "Split queries attributed to a question of the catalogue (corpus/questions.toml): {} of {} ({}). The minority is the smaller side of a split (on a tie, the side against the decided verdict).\n",
        count(a.attributed),
        count(a.split),
        percent(a.attributed, a.split)
    )?;
    let table = tables::questions(survey);
    if table.rows.is_empty() {
        return writeln!(page, "No split query was attributed to a question.\n");
    }
    write_figure(page, &figures::Figure::Questions)?;
    writeln!(page, "{}", table.markdown())
}

/// "New": the split queries no question explains, one subsection per group.
fn write_new(page: &mut String, survey: &Survey) -> std::fmt::Result {
    writeln!(page, "## New\n")?;
    let groups = new_groups(survey);
    let how = if survey.tally.new_minimized {
        "Each example is the first query of its group by (host, place in the input, query number), minimized with the fuzzing minimizer where its split reproduces on the file's first 4 KiB"
    } else {
        "The examples are not minimized (`--minimize` does): each is the first query of its group by (host, place in the input, query number)"
    };
    // Real files are inputs, not content: a page that may be committed shows a real
    // body only once minimized (survey.json keeps the example's first 4 KiB).
    writeln!(
        page,
        "Split queries attributed to no question: {} in {} group(s) by the partition of the implementations. {how}. A real file's body is shown only minimized (`survey.json` keeps each example's first 4 KiB); bodies in visible notation (→ tab, ← CR, ↵ LF, ⇔ BOM, ␣ trailing space, \\xHH other octets).\n",
        count(groups.iter().map(|g| g.queries).sum()),
        groups.len()
    )?;
    for (n, group) in groups.iter().enumerate() {
        write_new_group(page, n + 1, group, survey.tally.new_minimized)?;
    }
    Ok(())
}

/// Group `number` of "New": its partition, example and, if made, minimized example.
fn write_new_group(
    page: &mut String,
    number: usize,
    group: &NewGroup,
    minimizing: bool,
) -> std::fmt::Result {
    let e = &group.example;
    writeln!(
        page,
        "### {}. allowed: {} | disallowed: {}\n",
        number,
        list(&group.allowed),
        list(&group.disallowed)
    )?;
    writeln!(
        page,
        "{} queries in {} files. Example: host `{}`, agent `{}`, URL `{}` ({}), body of {} octets{}.\n",
        count(group.queries),
        count(group.files),
        inline(&e.host),
        inline(&e.agent),
        inline(&e.url),
        e.origin,
        count(e.body_len),
        if e.body_len as usize > EXAMPLE_BODY_LIMIT {
            " (4 KiB kept)"
        } else {
            ""
        }
    )?;
    let Some(m) = &group.minimized else {
        if minimizing {
            writeln!(
                page,
                "Not minimized: the split does not reproduce on the stored body.\n"
            )?;
        }
        return Ok(());
    };
    writeln!(
        page,
        "Minimized ({} evaluations, {}): agent `{}`, URL `{}`, body of {} octets:\n",
        m.evaluations,
        if m.stop == "done" {
            "as small as the passes get it"
        } else {
            "budget spent"
        },
        inline(&m.agent),
        inline(&m.url),
        count(m.body_len)
    )?;
    writeln!(page, "{}\n", fence_block(m.body.trim_end_matches('\n')))?;
    if let Some(id) = &m.question {
        writeln!(
            page,
            "Minimized, it matches {id}: attributed again, the minimized example goes to that question.\n"
        )?;
    }
    Ok(())
}

/// Names joined, or `none`.
fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}
