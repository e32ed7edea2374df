//! The survey's tables as data ([`crate::pieces::table::Table`]): `README.md` shows
//! them in Markdown, `survey.html` in HTML, and `csv/NAME.csv` holds each as CSV.
//!
//! [`all`] lists every table written as CSV; a new table is a function here returning a
//! [`Table`], pushed in [`all`] and written where the pages want it.

use super::json::{new_groups, question_rows, status_rows};
use super::MISSING_KINDS;
use crate::pieces::table::{Cell, Header, Table};
use reptest_survey::engine::Survey;
use reptest_survey::tally::PairTally;

/// Every table of the survey, in the order of `README.md`, then the new groups (which
/// the page shows as sections, and CSV as one table).
pub fn all(survey: &Survey) -> Vec<Table> {
    vec![
        status(survey),
        implementations(survey),
        pairwise_queries(survey),
        pairwise_files(survey),
        questions(survey),
        new(survey),
    ]
    .into_iter()
    .chain(super::research_tables::all(survey))
    .collect()
}

/// The implementations' names, in the survey's order.
fn names(survey: &Survey) -> Vec<&str> {
    survey.header.names()
}

/// `status`: files and queries per status family, with the access method's branch.
pub fn status(survey: &Survey) -> Table {
    let mut table = Table::new(
        "status",
        "Status codes",
        vec![
            Header::text("status"),
            Header::count("files"),
            Header::share("share"),
            Header::text("access method (RFC 9309)"),
            Header::count("queries"),
        ],
    );
    for (family, branch, files, queries) in status_rows(survey) {
        let section = branch
            .section()
            .map_or(String::new(), |s| format!(" (§{s})"));
        table.row(vec![
            Cell::Text(family),
            Cell::Count(files),
            Cell::Share {
                part: files,
                whole: survey.tally.files.read,
            },
            Cell::Text(format!("{}: {}{section}", branch.label(), branch.meaning())),
            Cell::Count(queries),
        ]);
    }
    table
}

/// `implementations`: each implementation's answers and its disagreement with the
/// decided verdict.
pub fn implementations(survey: &Survey) -> Table {
    let kinds = ["error", "timeout", "crash", "unsupported", "skipped"];
    let mut table = Table::new(
        "implementations",
        "Against the decided verdict",
        vec![
            Header::text("implementation"),
            Header::text("version"),
            Header::count("queries"),
            Header::count("verdicts"),
            Header::text(&format!("missing ({MISSING_KINDS})"))
                .fields(std::iter::once("missing").chain(kinds)),
            Header::share_of("disagree: queries").heat(),
            Header::share_of("disagree: files"),
        ],
    );
    for (entry, t) in survey
        .header
        .implementations
        .iter()
        .zip(&survey.tally.implementations)
    {
        let (m, d) = (&t.missing, &t.decided);
        table.row(vec![
            Cell::text(&entry.name),
            Cell::text(&entry.version),
            Cell::Count(t.asked),
            Cell::Count(t.verdicts),
            Cell::Total(vec![m.error, m.timeout, m.crash, m.unsupported, m.skipped]),
            Cell::ShareOf {
                part: d.queries_disagree,
                whole: d.queries,
            },
            Cell::ShareOf {
                part: d.files_disagree,
                whole: d.files,
            },
        ]);
    }
    table
}

/// `pairwise-queries`: of the queries both answered with a verdict, the share on which
/// row and column differ.
pub fn pairwise_queries(survey: &Survey) -> Table {
    pairwise(
        survey,
        "pairwise-queries",
        "Pairwise disagreement: queries",
        |p| (p.queries_disagree, p.queries),
    )
}

/// `pairwise-files`: of the files on which both gave a verdict, the share with at least
/// one query on which row and column differ.
pub fn pairwise_files(survey: &Survey) -> Table {
    pairwise(
        survey,
        "pairwise-files",
        "Pairwise disagreement: files",
        |p| (p.files_disagree, p.files),
    )
}

/// A pairwise matrix of the whole survey.
fn pairwise(survey: &Survey, name: &str, title: &str, of: fn(&PairTally) -> (u64, u64)) -> Table {
    pairwise_of(survey, &survey.tally.pairwise, name, title, of)
}

/// A pairwise matrix (the whole survey's or a stratum's): implementations numbered in
/// the header (named in CSV), named in the rows; each cell `part` of `whole` of the
/// pair, coloured in HTML.
pub(crate) fn pairwise_of(
    survey: &Survey,
    matrix: &[Vec<PairTally>],
    name: &str,
    title: &str,
    of: fn(&PairTally) -> (u64, u64),
) -> Table {
    let names = names(survey);
    let headers = std::iter::once(Header::text("").fields(["implementation"]))
        .chain(names.iter().enumerate().map(|(j, name)| {
            Header::share(&(j + 1).to_string())
                .fields([format!("{name} (fraction)")])
                .heat()
        }))
        .collect();
    let mut table = Table::new(name, title, headers);
    for (i, (name, row)) in names.iter().zip(matrix).enumerate() {
        let label = Cell::Numbered {
            number: i + 1,
            name: name.to_string(),
        };
        let cells = row.iter().map(|pair| {
            let (part, whole) = of(pair);
            Cell::Share { part, whole }
        });
        table.row(std::iter::once(label).chain(cells).collect());
    }
    table
}

/// `questions`: the split queries attributed to each question, and the implementations
/// on the minority side (in CSV, one column per implementation).
pub fn questions(survey: &Survey) -> Table {
    let names = names(survey);
    let minority = "on the minority side (queries)";
    let mut table = Table::new(
        "questions",
        "Questions",
        vec![
            Header::text("question"),
            Header::text("").fields(["text"]),
            Header::count("queries"),
            Header::count("files"),
            Header::text(minority).fields(names.iter().map(|n| format!("{minority}: {n}"))),
        ],
    );
    for row in question_rows(survey) {
        table.row(vec![
            Cell::Text(row.id),
            Cell::Text(row.text),
            Cell::Count(row.queries),
            Cell::Count(row.files),
            Cell::tallies(row.minority, &names),
        ]);
    }
    table
}

/// `new-groups`: the split queries no question explains, one row per partition, with
/// its example and, if made, the minimized example (CSV only: the page shows each group
/// as a section).
pub fn new(survey: &Survey) -> Table {
    let text = |t: &str| Header::text(t);
    let mut table = Table::new(
        "new-groups",
        "New: split queries attributed to no question",
        vec![
            Header::count("group"),
            text("allowed"),
            text("disallowed"),
            Header::count("queries"),
            Header::count("files"),
            text("example host"),
            text("example agent"),
            text("example URL"),
            text("example origin"),
            Header::count("example body octets"),
            text("minimized agent"),
            text("minimized URL"),
            text("minimized body"),
            text("minimized question"),
        ],
    );
    for (n, group) in new_groups(survey).into_iter().enumerate() {
        let e = &group.example;
        let m = group.minimized.as_ref();
        let or_empty = |f: &dyn Fn(&reptest_survey::tally::Minimized) -> String| {
            Cell::Text(m.map(f).unwrap_or_default())
        };
        table.row(vec![
            Cell::Count(n as u64 + 1),
            Cell::Text(group.allowed.join(" ")),
            Cell::Text(group.disallowed.join(" ")),
            Cell::Count(group.queries),
            Cell::Count(group.files),
            Cell::text(&e.host),
            Cell::text(&e.agent),
            Cell::text(&e.url),
            Cell::text(&e.origin),
            Cell::Count(e.body_len),
            or_empty(&|m| m.agent.clone()),
            or_empty(&|m| m.url.clone()),
            or_empty(&|m| m.body.clone()),
            or_empty(&|m| m.question.clone().unwrap_or_default()),
        ]);
    }
    table
}
