//! `reptest corpus`: the corpus's statistics as text ([`stats`]) or JSON
//! ([`stats_json`]), one case with its body and queries ([`case`]), and the export's
//! files ([`export_files`]).

use reptest_corpus::export::{Export, Manifest};
use reptest_corpus::{Case, Corpus, Stats};
use serde_json::{json, Map, Value};
use std::fmt::Write as _;

/// The statistics for people: sizes, queries per level and per expectation, one line
/// per requirement (under-covered ones marked), then the uncovered requirements. Every
/// line ends with a line break.
pub fn stats(stats: &Stats) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} cases, {} queries ({} undecided); {} questions, named by {} queries; \
         {} queries without a root cause",
        stats.cases,
        stats.queries,
        stats.undecided,
        stats.questions,
        stats.with_question,
        stats.without_cause.len()
    );
    let levels: Vec<String> = stats
        .per_level
        .iter()
        .map(|(l, n)| format!("{l} {n}"))
        .collect();
    let _ = writeln!(out, "per level: {}", levels.join(", "));
    let expects: Vec<String> = stats
        .per_expect
        .iter()
        .map(|(e, n)| format!("{e} {n}"))
        .collect();
    let _ = writeln!(out, "per expectation: {}", expects.join(", "));
    let _ = writeln!(out, "\n{:<26} {:<8} queries", "requirement", "level");
    for r in &stats.per_requirement {
        let mark = if stats.under_covered.contains(&r.id) {
            "  <- under-covered"
        } else {
            ""
        };
        let _ = writeln!(out, "{:<26} {:<8} {}{mark}", r.id, r.level, r.queries);
    }
    if stats.uncovered.is_empty() {
        let _ = writeln!(out, "\nevery requirement is covered");
    } else {
        let _ = writeln!(out, "\nuncovered: {}", stats.uncovered.join(", "));
    }
    out
}

/// The statistics as a pretty-printed JSON object (no final line break).
pub fn stats_json(stats: &Stats) -> String {
    let per_level: Map<String, Value> = stats
        .per_level
        .iter()
        .map(|(l, n)| (l.to_string(), json!(n)))
        .collect();
    let per_requirement: Map<String, Value> = stats
        .per_requirement
        .iter()
        .map(|r| (r.id.clone(), json!(r.queries)))
        .collect();
    let value = json!({
        "cases": stats.cases,
        "queries": stats.queries,
        "uncovered": stats.uncovered,
        "under_covered": stats.under_covered,
        "per_level": per_level,
        "per_expect": stats.per_expect,
        "per_requirement": per_requirement,
        "triage": stats.triage,
        "undecided": stats.undecided,
        "questions": stats.questions,
        "with_question": stats.with_question,
        "without_cause": stats.without_cause,
    });
    // A `Value` always serializes.
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

/// Bodies longer than four times this are shown as this many bytes of head and tail.
const EDGE: usize = 1024;

/// One case of `corpus` for `reptest corpus show`: id, file and line, title, fetch
/// scenario, the body in visible notation (a long one as head and tail), then each query
/// with its expectation, level, requirements, reason, profiles, question and triage.
/// Every line ends with a line break.
pub fn case(corpus: &Corpus, case: &Case) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}:{})\n{}\n",
        case.id,
        case.file.display(),
        case.line,
        case.title
    );
    if let Some(fetch) = &case.fetch {
        let _ = writeln!(out, "fetch: {fetch:?}\n");
    }
    let _ = writeln!(out, "--- robots.txt ({} bytes) ---", case.body.len());
    let visible = reptest_core::visible_notation::render;
    if case.body.len() > 4 * EDGE {
        let head = &case.body[..EDGE];
        let tail = &case.body[case.body.len() - EDGE..];
        let elided = case.body.len() - 2 * EDGE;
        let _ = writeln!(out, "{}", visible(head));
        let _ = writeln!(out, "⋯ {elided} bytes not shown ⋯");
        let _ = writeln!(out, "{}", visible(tail));
    } else {
        let _ = writeln!(out, "{}", visible(&case.body));
    }
    let _ = writeln!(out, "---");
    for q in &case.queries {
        let _ = writeln!(
            out,
            "{}  {} {}  expect {}  [{} {}]",
            q.id,
            q.agent,
            q.url,
            q.expect,
            q.level,
            q.requirements.join(" ")
        );
        let _ = writeln!(out, "    {}", q.why);
        for (profile, expect) in &q.profiles {
            let _ = writeln!(out, "    profile {profile}: {expect}");
        }
        if let Some(question) = q.question.as_deref() {
            let _ = match corpus.question(question) {
                Some(found) => writeln!(out, "    question {question}: {}", found.question),
                None => writeln!(out, "    question {question}"),
            };
        }
        if let Some(triage) = &q.triage {
            let _ = writeln!(out, "    triage: {triage}");
        }
    }
    out
}

/// The export's files (`reptest corpus export`): `manifest.json`, then the queries,
/// `queries.json` (one pretty-printed array) when `json`, else `queries.jsonl` (one
/// object a line), then `bodies.json` (one object, a body a line, by hash); each as its
/// name and its text, ending with a line break.
pub fn export_files(
    export: &Export,
    json: bool,
) -> Result<[(&'static str, String); 3], serde_json::Error> {
    let manifest = serde_json::to_string_pretty(&export.manifest)? + "\n";
    let mut bodies = String::from("{");
    for (n, (hash, body)) in export.bodies.iter().enumerate() {
        bodies.push_str(if n == 0 { "\n" } else { ",\n" });
        bodies.push_str(&serde_json::to_string(hash)?);
        bodies.push_str(": ");
        bodies.push_str(&serde_json::to_string(body)?);
    }
    bodies.push_str("\n}\n");
    let queries = if json {
        (
            "queries.json",
            serde_json::to_string_pretty(&export.queries)? + "\n",
        )
    } else {
        let mut text = String::new();
        for query in &export.queries {
            text.push_str(&serde_json::to_string(query)?);
            text.push('\n');
        }
        ("queries.jsonl", text)
    };
    Ok([
        ("manifest.json", manifest),
        queries,
        ("bodies.json", bodies),
    ])
}

/// What `reptest corpus export` says once it wrote `files` (the paths of
/// [`export_files`]' files).
pub fn exported(manifest: &Manifest, files: &[std::path::PathBuf]) -> String {
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    format!(
        "wrote {}: {} queries of {} cases, {} distinct bodies, corpus {} ({})",
        names.join(", "),
        manifest.queries,
        manifest.cases,
        manifest.bodies,
        manifest.corpus_version.as_deref().unwrap_or("unversioned"),
        manifest.corpus_fingerprint
    )
}
