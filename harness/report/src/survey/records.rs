//! The survey's per-query records as JSON lines (`reptest survey --records FILE`).
//!
//! The first line describes the records: `{"type": "survey", ...}` with the
//! implementations in the order every `outcomes` and `classes` list follows, the site
//! crawlers, the seed and queries per file. Then, file after file (in the order the
//! worker threads finish them, not the input's), one `{"type": "file", ...}` line
//! ([`reptest_survey::records::FileLine`]) and one `{"type": "query", ...}` line per
//! derived query ([`reptest_survey::records::QueryLine`]).

use serde::Serialize;

use reptest_survey::engine::ImplEntry;
use reptest_survey::records::FileRecord;
use reptest_survey::sites::SITE_CRAWLERS;

/// The records' format version.
pub const RECORDS_FORMAT: u32 = 1;

#[derive(Serialize)]
struct Header<'a> {
    r#type: &'static str,
    format: u32,
    implementations: &'a [ImplEntry],
    crawlers: &'static [&'static str],
    seed: u64,
    queries_per_file: u64,
}

#[derive(Serialize)]
struct Tagged<'a, T> {
    r#type: &'static str,
    #[serde(flatten)]
    line: &'a T,
}

/// The first line (with its newline).
pub fn header_line(implementations: &[ImplEntry], seed: u64, queries_per_file: u64) -> String {
    line(&Header {
        r#type: "survey",
        format: RECORDS_FORMAT,
        implementations,
        crawlers: &SITE_CRAWLERS,
        seed,
        queries_per_file,
    })
}

/// One file's lines (each with its newline).
pub fn file_lines(record: &FileRecord) -> String {
    let mut out = line(&Tagged {
        r#type: "file",
        line: &record.file,
    });
    for query in &record.queries {
        out.push_str(&line(&Tagged {
            r#type: "query",
            line: query,
        }));
    }
    out
}

/// `value` as one JSON line.
fn line(value: &impl Serialize) -> String {
    let mut text =
        serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}
