//! `reptest corpus`: statistics, validation, one case.

use super::{CommandResult, CorpusArg};
use reptest_corpus::{Corpus, Stats};
use serde_json::{json, Map, Value};
use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Counts of cases and queries, per level and per requirement ID, and the
    /// requirement IDs no query covers.
    Stats {
        #[command(flatten)]
        corpus: CorpusArg,
        /// Print JSON: {"cases", "queries", "uncovered", "under_covered", "per_level",
        /// "per_expect", "per_requirement", "triage", "undecided" (queries without a
        /// decided verdict), "questions" (in the catalogue), "with_question" (queries that
        /// name one), "without_cause" (ids of the queries with neither a question nor
        /// one plain requirement as their root cause)}.
        #[arg(long)]
        json: bool,
        /// Rewrite the generated figures of FILE (the repository's README.md): the
        /// corpus's counts and the reference's pass rates, each between
        /// `<!-- NAME:begin -->` and `<!-- NAME:end -->` lines (corpus-figures,
        /// reference-figures). A test fails when the committed ones are stale.
        #[arg(long, value_name = "FILE", conflicts_with = "json")]
        readme: Option<std::path::PathBuf>,
    },
    /// Validate every case file; print every problem with file, line and case id.
    Check {
        #[command(flatten)]
        corpus: CorpusArg,
    },
    /// Write the corpus as language-neutral files for tests in any language:
    /// DIR/manifest.json (corpus version and fingerprint, counts) and DIR/queries.jsonl
    /// (one JSON object per line) or DIR/queries.json (one array). Each query carries its
    /// body (base64 always, text when UTF-8), agent, URL, fetch scenario, the expected
    /// verdict per profile, level and requirement IDs. docs/export.md has a pytest and a
    /// `node --test` that run a library over it.
    Export {
        #[command(flatten)]
        corpus: CorpusArg,
        /// The folder to write into (created if missing; the two files are replaced).
        #[arg(long, value_name = "DIR")]
        out: std::path::PathBuf,
        /// `jsonl` (one query per line) or `json` (one array).
        #[arg(long, default_value = "jsonl", value_parser = ["jsonl", "json"])]
        format: String,
    },
    /// Print one case: its body in visible-character notation and its queries.
    Show {
        #[command(flatten)]
        corpus: CorpusArg,
        /// The case id (see the case files under corpus/), or a query id (`case/name`):
        /// its case.
        id: String,
    },
    /// Rewrite the fuzzing write-ups (REPORTS/findings/NAME.md) from the findings files
    /// (corpus/findings/NAME.toml) and the question catalogue, after deciding or
    /// attributing findings. A test checks the committed write-ups are this rendering.
    WriteUps {
        #[command(flatten)]
        corpus: CorpusArg,
        /// The reports folder. Default: reports/ beside the corpus folder.
        #[arg(long, value_name = "DIR")]
        reports: Option<std::path::PathBuf>,
    },
}

pub fn run(command: Command) -> CommandResult {
    match command {
        Command::Stats {
            corpus,
            readme: Some(file),
            ..
        } => readme(&corpus.load()?, &file),
        Command::Stats { corpus, json, .. } => {
            let stats = corpus.load()?.stats();
            if json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&stats_json(&stats)).map_err(|e| e.to_string())?
                );
            } else {
                print_stats(&stats);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { corpus } => {
            let corpus = corpus.load()?;
            let stats = corpus.stats();
            outln!("ok: {} cases, {} queries", stats.cases, stats.queries);
            Ok(ExitCode::SUCCESS)
        }
        Command::Show { corpus, id } => show(&corpus.load()?, &id),
        Command::WriteUps { corpus, reports } => {
            let dir = corpus.dir();
            let loaded = corpus.load()?;
            let reports = reports.unwrap_or_else(|| dir.join("../reports"));
            let mut campaigns: Vec<String> = loaded
                .cases()
                .iter()
                .filter(|c| {
                    c.file.parent().and_then(|p| p.file_name()) == Some("findings".as_ref())
                })
                .filter_map(|c| c.file.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .collect();
            campaigns.sort();
            campaigns.dedup();
            let target = reports.join("findings");
            std::fs::create_dir_all(&target)
                .map_err(|e| format!("cannot create {}: {e}", target.display()))?;
            for campaign in &campaigns {
                let path = target.join(format!("{campaign}.md"));
                let text = reptest::fuzz::findings::render_corpus_write_up(&loaded, campaign);
                reptest::atomic::write(&path, text.as_bytes()).map_err(|e| e.to_string())?;
                outln!("wrote {}", path.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Export {
            corpus,
            out,
            format,
        } => export(&corpus.load()?, &out, &format),
    }
}

/// `reptest corpus stats --readme FILE`: rewrites FILE's generated figures in place.
fn readme(corpus: &Corpus, file: &std::path::Path) -> CommandResult {
    let name = file.display();
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {name}: {e}"))?;
    let blocks = super::figures::blocks(corpus)?;
    let new = super::figures::rewrite(&text, &blocks).map_err(|e| format!("{name}: {e}"))?;
    if new == text {
        outln!("{name}: the figures are current");
    } else {
        reptest::atomic::write(file, new.as_bytes()).map_err(|e| e.to_string())?;
        outln!("{name}: figures rewritten");
    }
    Ok(ExitCode::SUCCESS)
}

/// `reptest corpus export`: the manifest and the queries, written together (atomically).
fn export(corpus: &Corpus, out: &std::path::Path, format: &str) -> CommandResult {
    let (manifest, queries) = reptest_corpus::export::export(corpus);
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut manifest_text = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())?;
    manifest_text.push('\n');
    let (name, text) = if format == "json" {
        let mut text = serde_json::to_string_pretty(&queries).map_err(|e| e.to_string())?;
        text.push('\n');
        ("queries.json", text)
    } else {
        let mut text = String::new();
        for query in &queries {
            text.push_str(&serde_json::to_string(query).map_err(|e| e.to_string())?);
            text.push('\n');
        }
        ("queries.jsonl", text)
    };
    reptest::atomic::write_all(&[
        (out.join("manifest.json"), manifest_text.into_bytes()),
        (out.join(name), text.into_bytes()),
    ])
    .map_err(|e| e.to_string())?;
    outln!(
        "wrote {} and {}: {} queries of {} cases, corpus {} ({})",
        out.join("manifest.json").display(),
        out.join(name).display(),
        manifest.queries,
        manifest.cases,
        manifest.corpus_version.as_deref().unwrap_or("unversioned"),
        manifest.corpus_fingerprint
    );
    Ok(ExitCode::SUCCESS)
}

fn stats_json(stats: &Stats) -> Value {
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
    json!({
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
    })
}

fn print_stats(stats: &Stats) {
    outln!(
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
    outln!("per level: {}", levels.join(", "));
    let expects: Vec<String> = stats
        .per_expect
        .iter()
        .map(|(e, n)| format!("{e} {n}"))
        .collect();
    outln!("per expectation: {}", expects.join(", "));
    outln!("\n{:<26} {:<8} queries", "requirement", "level");
    for r in &stats.per_requirement {
        let mark = if stats.under_covered.contains(&r.id) {
            "  <- under-covered"
        } else {
            ""
        };
        outln!("{:<26} {:<8} {}{mark}", r.id, r.level, r.queries);
    }
    if stats.uncovered.is_empty() {
        outln!("\nevery requirement is covered");
    } else {
        outln!("\nuncovered: {}", stats.uncovered.join(", "));
    }
}

/// The error for a case id the corpus lacks, with the nearest ids it has.
fn unknown_case(corpus: &Corpus, id: &str) -> String {
    let ids = corpus.cases().iter().map(|c| c.id.as_str());
    let near = reptest::nearest::nearest(id, ids, 5);
    if near.is_empty() {
        return format!("no case with id `{id}` in the corpus (the ids are the `id =` lines of the case files under corpus/)");
    }
    let near: Vec<String> = near.iter().map(|n| format!("  {n}")).collect();
    format!(
        "no case with id `{id}` in the corpus; the nearest ids:\n{}",
        near.join("\n")
    )
}

fn show(corpus: &Corpus, id: &str) -> CommandResult {
    // A query id (`case/name`, as baselines and reports print it) shows its case.
    let id = reptest_corpus::names::split_id(id).map_or(id, |(case, _)| case);
    let Some(case) = corpus.cases().iter().find(|c| c.id == id) else {
        return Err(unknown_case(corpus, id));
    };
    outln!(
        "{} ({}:{})\n{}\n",
        case.id,
        case.file.display(),
        case.line,
        case.title
    );
    if let Some(fetch) = &case.fetch {
        outln!("fetch: {fetch:?}\n");
    }
    outln!("--- robots.txt ({} bytes) ---", case.body.len());
    const EDGE: usize = 1024;
    if case.body.len() > 4 * EDGE {
        let head = &case.body[..EDGE];
        let tail = &case.body[case.body.len() - EDGE..];
        let elided = case.body.len() - 2 * EDGE;
        outln!("{}", reptest::visible_notation::render(head));
        outln!("⋯ {elided} bytes not shown ⋯");
        outln!("{}", reptest::visible_notation::render(tail));
    } else {
        outln!("{}", reptest::visible_notation::render(&case.body));
    }
    outln!("---");
    for q in &case.queries {
        outln!(
            "{}  {} {}  expect {}  [{} {}]",
            q.id,
            q.agent,
            q.url,
            q.expect,
            q.level,
            q.requirements.join(" ")
        );
        outln!("    {}", q.why);
        for (profile, expect) in &q.profiles {
            outln!("    profile {profile}: {expect}");
        }
        if let Some(question) = q.question.as_deref() {
            match corpus.question(question) {
                Some(found) => outln!("    question {question}: {}", found.question),
                None => outln!("    question {question}"),
            }
        }
        if let Some(triage) = &q.triage {
            outln!("    triage: {triage}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
