//! `README.md`: the survey for people to read, deterministic (no time stamp, no path).

use std::fmt::Write;

use super::json::{new_groups, question_rows, status_rows};
use super::{count, percent, AGREEMENT_MEANS, DECIDED_MEANS, MISSING_KINDS};
use crate::engine::Survey;

/// The Markdown page of `survey`.
pub fn render(survey: &Survey) -> String {
    let mut page = String::new();
    let _ = write_page(&mut page, survey);
    page
}

fn write_page(page: &mut String, survey: &Survey) -> std::fmt::Result {
    let header = &survey.header;
    let tally = &survey.tally;
    let names: Vec<&str> = header
        .implementations
        .iter()
        .map(|i| i.name.as_str())
        .collect();
    writeln!(page, "# reptest survey\n")?;
    let a = &tally.agreement;
    let (share, of) = super::headline(survey);
    writeln!(page, "**{share}** {of}\n")?;
    writeln!(page, "{AGREEMENT_MEANS}\n")?;
    writeln!(page, "{}\n", super::settings(survey))?;
    let f = &tally.files;
    if f.skipped + f.cut_at_limit + f.cut_in_archive > 0 {
        writeln!(
            page,
            "{} entries skipped as unreadable; {} bodies cut at 1 MiB; {} stored incomplete by the archive.\n",
            count(f.skipped),
            count(f.cut_at_limit),
            count(f.cut_in_archive)
        )?;
    }

    writeln!(page, "## Status codes\n")?;
    writeln!(
        page,
        "Files without a status (a directory or tar archive) are taken as fetched with 200. Only the files whose rules apply are surveyed.\n"
    )?;
    writeln!(
        page,
        "| status | files | share | access method (RFC 9309) | queries |\n| --- | ---: | ---: | --- | ---: |"
    )?;
    for (family, branch, files, queries) in status_rows(survey) {
        let section = branch
            .section()
            .map_or(String::new(), |s| format!(" (§{s})"));
        writeln!(
            page,
            "| {family} | {} | {} | {}: {}{section} | {} |",
            count(files),
            percent(files, tally.files.read),
            branch.label(),
            branch.meaning(),
            count(queries)
        )?;
    }

    writeln!(page, "\n## Against the decided verdict\n")?;
    writeln!(page, "{DECIDED_MEANS}\n")?;
    writeln!(
        page,
        "| implementation | version | queries | verdicts | missing ({MISSING_KINDS}) | disagree: queries | disagree: files |\n| --- | --- | ---: | ---: | --- | ---: | ---: |"
    )?;
    for row in super::decided_rows(survey) {
        writeln!(
            page,
            "| {} | {} | {} | {} | {} ({}) | {} ({}) | {} ({}) |",
            cell(row.name),
            cell(row.version),
            row.asked,
            row.verdicts,
            row.missing,
            row.by_kind,
            row.queries.0,
            row.queries.1,
            row.files.0,
            row.files.1
        )?;
    }
    writeln!(page, "\n{}", super::breaker(survey))?;

    writeln!(page, "\n## Pairwise disagreement\n")?;
    writeln!(
        page,
        "Row against column: of the queries both answered with a verdict, the share on which their verdicts differ (then, below, of the files on which both gave a verdict, the share with at least one such query).\n"
    )?;
    for (title, part, whole) in [
        (
            "Queries",
            (|p: &crate::tally::PairTally| p.queries_disagree) as fn(&_) -> u64,
            (|p: &crate::tally::PairTally| p.queries) as fn(&_) -> u64,
        ),
        ("Files", |p| p.files_disagree, |p| p.files),
    ] {
        writeln!(page, "{title}:\n")?;
        write!(page, "| |")?;
        for (j, _) in names.iter().enumerate() {
            write!(page, " {} |", j + 1)?;
        }
        write!(page, "\n| --- |")?;
        for _ in &names {
            write!(page, " ---: |")?;
        }
        writeln!(page)?;
        for (i, name) in names.iter().enumerate() {
            write!(page, "| {} {} |", i + 1, cell(name))?;
            for pair in &tally.pairwise[i] {
                write!(page, " {} |", percent(part(pair), whole(pair)))?;
            }
            writeln!(page)?;
        }
        writeln!(page)?;
    }

    writeln!(page, "## Questions\n")?;
    writeln!(
        page,
        "Split queries attributed to a question of the catalogue (corpus/questions.toml): {} of {} ({}). The minority is the smaller side of a split (on a tie, the side against the decided verdict).\n",
        count(a.attributed),
        count(a.split),
        percent(a.attributed, a.split)
    )?;
    let rows = question_rows(survey);
    if rows.is_empty() {
        writeln!(page, "No split query was attributed to a question.\n")?;
    } else {
        writeln!(
            page,
            "| question | | queries | files | on the minority side (queries) |\n| --- | --- | ---: | ---: | --- |"
        )?;
        for row in rows {
            let minority: Vec<String> = row
                .minority
                .iter()
                .map(|(name, n)| format!("{} {}", cell(name), count(*n)))
                .collect();
            writeln!(
                page,
                "| {} | {} | {} | {} | {} |",
                row.id,
                cell(&row.text),
                count(row.queries),
                count(row.files),
                minority.join(", ")
            )?;
        }
        writeln!(page)?;
    }

    writeln!(page, "## New\n")?;
    let groups = new_groups(survey);
    let how = if tally.new_minimized {
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
        let e = &group.example;
        writeln!(
            page,
            "### {}. allowed: {} | disallowed: {}\n",
            n + 1,
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
            if e.body_len as usize > crate::tally::EXAMPLE_BODY_LIMIT {
                " (4 KiB kept)"
            } else {
                ""
            }
        )?;
        if let Some(m) = &group.minimized {
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
            code_block(page, &m.body)?;
            if let Some(id) = &m.question {
                writeln!(
                    page,
                    "Minimized, it matches {id}: attributed again, the minimized example goes to that question.\n"
                )?;
            }
        } else if tally.new_minimized {
            writeln!(
                page,
                "Not minimized: the split does not reproduce on the stored body.\n"
            )?;
        }
    }
    Ok(())
}

/// A body in a fenced code block, then a blank line.
fn code_block(page: &mut String, body: &str) -> std::fmt::Result {
    let fence = fence(body);
    writeln!(
        page,
        "{fence}text\n{}\n{fence}\n",
        body.trim_end_matches('\n')
    )
}

/// Names joined, or `none`.
fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// Text for a table cell: `|` escaped, line breaks as spaces.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Text for inline code: backticks cannot end it (they become `'`), no line breaks.
fn inline(text: &str) -> String {
    text.replace('`', "'").replace(['\n', '\r'], " ")
}

/// A code fence longer than any run of backticks in `text`.
fn fence(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat(longest.max(2) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_and_cells_cannot_break_the_markup() {
        assert_eq!(fence("a ``` b"), "````");
        assert_eq!(fence("plain"), "```");
        assert_eq!(cell("a|b\nc"), "a\\|b c");
        assert_eq!(inline("a`b"), "a'b");
        let mut page = String::new();
        code_block(&mut page, "x```\n").unwrap();
        assert_eq!(page, "````text\nx```\n````\n\n");
    }
}
