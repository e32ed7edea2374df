//! Tables as data (`reptest_report::pieces::table`) and the survey's tables as CSV: a
//! table read back from its CSV by an RFC 4180 reader gives every field it was written
//! with, commas, quotes and line breaks included, and numbers stay raw.

use crate::survey::{survey_by, Always};
use reptest_core::Implementation;
use reptest_impls::Reference;
use reptest_report::pieces::table::{Cell, Header, Table};
use reptest_report::survey::tables;
use reptest_survey::Shard;

/// The records of `text`, read as RFC 4180 says: fields split at commas, a quoted field
/// holds commas, CR, LF and doubled quotes; records end with CRLF.
fn read_csv(text: &str) -> Vec<Vec<String>> {
    let (mut records, mut record, mut field) = (Vec::new(), Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') if chars.peek() == Some(&'\n') => {
                chars.next();
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(!quoted && field.is_empty() && record.is_empty(), "{text:?}");
    records
}

/// The fields `table` was written with: its header's, then each row's.
fn fields(table: &Table) -> Vec<Vec<String>> {
    let header = table
        .headers
        .iter()
        .flat_map(|h| h.fields.clone())
        .collect();
    let rows = table
        .rows
        .iter()
        .map(|row| row.iter().flat_map(Cell::fields).collect());
    std::iter::once(header).chain(rows).collect()
}

#[test]
fn a_table_comes_back_from_its_csv_whole() {
    let awkward = [
        "plain",
        "a, b",
        "say \"no\"",
        "two\nlines",
        "cr\r\nlf",
        "\"",
        "",
    ];
    let mut table = Table::new(
        "t",
        "T",
        vec![
            Header::text("text, with a comma"),
            Header::count("n"),
            Header::share("share"),
        ],
    );
    for (i, text) in awkward.iter().enumerate() {
        table.row(vec![
            Cell::text(*text),
            Cell::Count(12345 * i as u64),
            Cell::Share {
                part: i as u64,
                whole: 8,
            },
        ]);
    }
    let csv = table.csv();
    let read = read_csv(&csv);
    assert_eq!(read, fields(&table));
    assert_eq!(read[0], ["text, with a comma", "n", "share (fraction)"]);
    assert_eq!(read[4][0], "two\nlines");
    assert_eq!(read[5], ["cr\r\nlf", "49380", "0.5"], "numbers raw");
    assert_eq!(read[4][1..], ["37035", "0.375"]);
    // Markdown keeps the same table on one line per row.
    assert_eq!(table.markdown().lines().count(), 2 + awkward.len());
}

#[test]
fn every_survey_table_reads_back_as_csv() {
    let reference = Reference::rfc9309();
    let (allow, deny) = (
        Always::new("allow,\"all\"", true),
        Always::new("deny", false),
    );
    let implementations: [&dyn Implementation; 3] = [&reference, &allow, &deny];
    let survey = survey_by(&implementations, Shard::WHOLE);
    let all = tables::all(&survey);
    let names: Vec<&str> = all.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "status",
            "implementations",
            "pairwise-queries",
            "pairwise-files",
            "questions",
            "new-groups",
            "sites-headline",
            "sites-crawlers",
            "sites-differ",
            "sites-classes",
            "strata",
            "natural-implementations",
            "natural-pairwise",
            "natural-questions",
            "probe-implementations",
            "probe-pairwise",
            "probe-questions",
            "agents"
        ]
    );
    for table in &all {
        let read = read_csv(&table.csv());
        assert_eq!(read, fields(table), "{}", table.name);
        assert!(
            read.iter().all(|r| r.len() == read[0].len()),
            "{}",
            table.name
        );
    }
    let pairwise = read_csv(&all[2].csv());
    assert_eq!(pairwise[0][2], "allow,\"all\" (fraction)");
    assert_eq!(pairwise[2][0], "allow,\"all\"");
    // allow and deny differ on every query both answered.
    assert_eq!(pairwise[2][3], "1");
    let implementations = read_csv(&all[1].csv());
    assert_eq!(
        implementations[0][4..10],
        [
            "missing",
            "error",
            "timeout",
            "crash",
            "unsupported",
            "skipped"
        ]
    );
}
