//! `reptest run`: the corpus through implementations, pass rates and failures.

use super::{CorpusArg, Outcome};
use reptest::runner::Run;
use reptest::score::{self, Summary, Tally};
use reptest_corpus::{Corpus, Level, PROFILES};
use std::path::PathBuf;
use std::process::ExitCode;

/// Run every corpus query through implementations (default: every available one), print
/// the pass rate per level (MUST / SHOULD / MAY), the speed, and the queries that did not
/// pass.
///
/// Exits 1 if an implementation named with --impl did not pass a query; with the default
/// (every available implementation, also `--impl all`), only the reference counts, and the
/// failures of the others are counted, not listed.
///
/// `reptest impls` lists the implementations; `bash harness/external/setup` installs
/// the external ones.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    corpus: CorpusArg,
    /// Implementations to run, comma-separated (see `reptest impls`). Default: every
    /// available one (`all`).
    #[arg(long = "impl", value_name = "NAMES", value_delimiter = ',')]
    implementations: Vec<String>,
    /// Judge against this profile's expectations.
    #[arg(long, default_value = "rfc9309", value_parser = PROFILES.to_vec())]
    profile: String,
    /// Print the summary as JSON, with every outcome.
    #[arg(long)]
    json: bool,
    /// Also write the outcome matrix as TSV: query id, expected verdict, one column per
    /// implementation with its outcome word.
    #[arg(long, value_name = "FILE")]
    matrix: Option<PathBuf>,
}

pub fn run(args: Args) -> Outcome {
    let corpus = args.corpus.load()?;
    let explicit =
        !args.implementations.is_empty() && !args.implementations.iter().any(|name| name == "all");
    let implementations = super::selected(&args.implementations)?;
    let run = super::run_corpus(&corpus, &implementations);
    // The implementations whose failures make the exit code 1.
    let gating: Vec<bool> = run
        .implementations
        .iter()
        .map(|name| explicit || name == "reference")
        .collect();
    let summaries = score::summarize(&corpus, &run, &args.profile);
    if let Some(path) = &args.matrix {
        std::fs::write(path, matrix(&corpus, &run, &args.profile))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json(&corpus, &run, &summaries, &gating))
                .map_err(|e| e.to_string())?
        );
    } else {
        print(&corpus, &run, &summaries, &gating, &args.profile);
    }
    let failed = summaries
        .iter()
        .zip(&gating)
        .any(|(s, gating)| *gating && !s.failures.is_empty());
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn cell(tally: Option<&Tally>) -> String {
    match tally {
        Some(t) if t.judged() > 0 => format!("{}/{} {:.1}%", t.pass, t.judged(), t.pass_rate()),
        _ => "-".into(),
    }
}

/// The outcome matrix as TSV: a header line, then one line per corpus query.
fn matrix(corpus: &Corpus, run: &Run, profile: &str) -> String {
    let mut out = format!("query\texpected\t{}\n", run.implementations.join("\t"));
    for (q, (_, query)) in corpus.queries().enumerate() {
        out.push_str(&query.id);
        out.push('\t');
        out.push_str(query.expect_for(profile).as_str());
        for outcomes in &run.outcomes {
            out.push('\t');
            out.push_str(outcomes.get(q).map_or("-", |o| o.word()));
        }
        out.push('\n');
    }
    out
}

fn speed(run: &Run, i: usize) -> String {
    let qps = run.queries_per_second(i);
    if qps.is_finite() {
        format!("{qps:.0}")
    } else {
        "-".into()
    }
}

fn print(corpus: &Corpus, run: &Run, summaries: &[Summary], gating: &[bool], profile: &str) {
    let stats = corpus.stats();
    println!(
        "reptest run: {} queries in {} cases, {} implementation(s), profile {profile}\n",
        stats.queries,
        stats.cases,
        summaries.len()
    );
    let width = summaries
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0)
        .max("implementation".len());
    println!(
        "{:<width$} {:<18} {:<18} {:<18} {:>11} {:>10} {:>9}",
        "implementation", "MUST", "SHOULD", "MAY", "unsupported", "no verdict", "queries/s"
    );
    for (i, s) in summaries.iter().enumerate() {
        let total = s.total();
        println!(
            "{:<width$} {:<18} {:<18} {:<18} {:>11} {:>10} {:>9}",
            s.name,
            cell(s.per_level.get(&Level::Must)),
            cell(s.per_level.get(&Level::Should)),
            cell(s.per_level.get(&Level::May)),
            total.unsupported,
            total.no_verdict,
            speed(run, i)
        );
    }
    let mut unlisted = Vec::new();
    for (s, gating) in summaries.iter().zip(gating) {
        if s.failures.is_empty() {
            continue;
        }
        if !gating {
            unlisted.push(format!("{} {}", s.name, s.failures.len()));
            continue;
        }
        println!("\n{}: {} queries did not pass", s.name, s.failures.len());
        for f in &s.failures {
            println!("  FAIL {}", f.describe(corpus));
        }
    }
    if !unlisted.is_empty() {
        println!(
            "\nqueries not passed by the others (list them with --impl NAME): {}",
            unlisted.join(", ")
        );
    }
    if summaries.iter().all(|s| s.failures.is_empty()) {
        println!("\nevery query passed");
    } else if summaries
        .iter()
        .zip(gating)
        .all(|(s, gating)| !gating || s.failures.is_empty())
    {
        let names: Vec<&str> = summaries
            .iter()
            .zip(gating)
            .filter(|(_, gating)| **gating)
            .map(|(s, _)| s.name.as_str())
            .collect();
        println!("\nevery query passed by {}", names.join(", "));
    }
}

fn json(corpus: &Corpus, run: &Run, summaries: &[Summary], gating: &[bool]) -> serde_json::Value {
    let queries: Vec<_> = corpus.queries().collect();
    serde_json::Value::Array(
        summaries
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let levels: serde_json::Map<String, serde_json::Value> = s
                    .per_level
                    .iter()
                    .map(|(level, t)| {
                        (
                            level.to_string(),
                            serde_json::json!({"pass": t.pass, "fail": t.fail, "unsupported": t.unsupported, "no_verdict": t.no_verdict}),
                        )
                    })
                    .collect();
                let failures: Vec<_> = s
                    .failures
                    .iter()
                    .map(|f| {
                        let (_, query) = queries[f.query];
                        serde_json::json!({"id": f.id, "agent": query.agent, "url": query.url,
                            "expected": f.expected.as_str(), "outcome": f.outcome.to_string()})
                    })
                    .collect();
                let outcomes: serde_json::Map<String, serde_json::Value> = queries
                    .iter()
                    .zip(&run.outcomes[i])
                    .map(|((_, query), outcome)| (query.id.clone(), outcome.word().into()))
                    .collect();
                let qps = run.queries_per_second(i);
                serde_json::json!({"implementation": s.name, "gating": gating[i],
                    "elapsed_s": run.elapsed[i].as_secs_f64(),
                    "queries_per_s": if qps.is_finite() { Some(qps) } else { None },
                    "per_level": levels, "failures": failures, "outcomes": outcomes})
            })
            .collect(),
    )
}
