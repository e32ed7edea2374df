//! `reptest run`: the corpus through implementations, pass rates and failures.

use super::{CorpusArg, Outcome};
use reptest::score::{self, Summary, Tally};
use reptest::{impls, runner};
use reptest_corpus::{Corpus, Level, PROFILES};
use std::process::ExitCode;

/// Run every corpus query through the chosen implementations, print the pass rate per
/// level (MUST / SHOULD / MAY) and every query that did not pass. Exits 1 if any query
/// did not pass.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    corpus: CorpusArg,
    /// Implementations to run, comma-separated (see `reptest impls`); `all` runs every
    /// available one.
    #[arg(
        long = "impl",
        value_name = "NAMES",
        value_delimiter = ',',
        default_value = "reference"
    )]
    implementations: Vec<String>,
    /// Judge against this profile's expectations.
    #[arg(long, default_value = "rfc9309", value_parser = PROFILES.to_vec())]
    profile: String,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Outcome {
    let corpus = args.corpus.load()?;
    let implementations = impls::select(&args.implementations)?;
    let run = runner::run(&corpus, &implementations);
    let summaries = score::summarize(&corpus, &run, &args.profile);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json(&corpus, &summaries)).map_err(|e| e.to_string())?
        );
    } else {
        print(&corpus, &summaries, &args.profile);
    }
    let failed = summaries.iter().any(|s| !s.failures.is_empty());
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

fn print(corpus: &Corpus, summaries: &[Summary], profile: &str) {
    let stats = corpus.stats();
    println!(
        "reptest run: {} queries in {} cases, {} implementation(s), profile {profile}\n",
        stats.queries,
        stats.cases,
        summaries.len()
    );
    println!(
        "{:<14} {:<18} {:<18} {:<18} {:>11} {:>10}",
        "implementation", "MUST", "SHOULD", "MAY", "unsupported", "no verdict"
    );
    for s in summaries {
        let total = s.total();
        println!(
            "{:<14} {:<18} {:<18} {:<18} {:>11} {:>10}",
            s.name,
            cell(s.per_level.get(&Level::Must)),
            cell(s.per_level.get(&Level::Should)),
            cell(s.per_level.get(&Level::May)),
            total.unsupported,
            total.no_verdict
        );
    }
    let queries: Vec<_> = corpus.queries().collect();
    for s in summaries {
        if s.failures.is_empty() {
            continue;
        }
        println!("\n{}: {} queries did not pass", s.name, s.failures.len());
        for f in &s.failures {
            let (case, query) = queries[f.query];
            println!(
                "  FAIL {} ({}:{}) agent={} url={} expected {}, got {}",
                f.id,
                case.file.display(),
                query.line,
                query.agent,
                query.url,
                f.expected,
                f.outcome
            );
        }
    }
    if summaries.iter().all(|s| s.failures.is_empty()) {
        println!("\nevery query passed");
    }
}

fn json(corpus: &Corpus, summaries: &[Summary]) -> serde_json::Value {
    let queries: Vec<_> = corpus.queries().collect();
    serde_json::Value::Array(
        summaries
            .iter()
            .map(|s| {
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
                serde_json::json!({"implementation": s.name, "per_level": levels, "failures": failures})
            })
            .collect(),
    )
}
