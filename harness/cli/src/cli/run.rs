//! `reptest run`: the corpus through implementations, pass rates and failures.

use super::{CorpusArg, Outcome};
use reptest::runner::Run;
use reptest::score::{self, Summary, Tally};
use reptest::Outcome as Answer;
use reptest_corpus::{Corpus, Level, Profile};
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
    #[arg(long, default_value = "rfc9309", value_parser = super::profile_parser())]
    profile: Profile,
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
    let summaries = score::summarize(&corpus, &run, args.profile);
    if let Some(path) = &args.matrix {
        reptest::atomic::write(path, matrix(&corpus, &run, args.profile).as_bytes())?;
    }
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&json(&corpus, &run, &summaries, &gating))
                .map_err(|e| e.to_string())?
        );
    } else {
        print(&corpus, &run, &summaries, &gating, args.profile);
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
fn matrix(corpus: &Corpus, run: &Run, profile: Profile) -> String {
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

fn print(corpus: &Corpus, run: &Run, summaries: &[Summary], gating: &[bool], profile: Profile) {
    let stats = corpus.stats();
    outln!(
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
    outln!(
        "{:<width$} {:<18} {:<18} {:<18} {:>11} {:>10} {:>9}",
        "implementation",
        "MUST",
        "SHOULD",
        "MAY",
        "unsupported",
        "no verdict",
        "queries/s"
    );
    for (i, s) in summaries.iter().enumerate() {
        let total = s.total();
        outln!(
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
    print_faults(corpus, run);
    print_slowest(corpus, run, width);
    let mut unlisted = Vec::new();
    for (s, gating) in summaries.iter().zip(gating) {
        if s.failures.is_empty() {
            continue;
        }
        if !gating {
            unlisted.push(format!("{} {}", s.name, s.failures.len()));
            continue;
        }
        outln!("\n{}: {} queries did not pass", s.name, s.failures.len());
        for f in &s.failures {
            outln!("  FAIL {}", f.describe(corpus));
        }
    }
    if !unlisted.is_empty() {
        outln!(
            "\nqueries not passed by the others (list them with --impl NAME): {}",
            unlisted.join(", ")
        );
    }
    if summaries.iter().all(|s| s.failures.is_empty()) {
        outln!("\nevery query passed");
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
        outln!("\nevery query passed by {}", names.join(", "));
    }
}

/// Faults listed per implementation, at most this many each (the count says the rest).
const FAULTS_SHOWN: usize = 5;
/// Slowest cases listed per implementation.
const SLOWEST_SHOWN: usize = 3;

/// The queries that got no verdict because the implementation timed out or crashed, per
/// implementation, with what it said (an adapter's stderr included): whatever the
/// implementation's gating, so a slow or dying adapter is never silent.
fn print_faults(corpus: &Corpus, run: &Run) {
    let mut first = true;
    for (name, outcomes) in run.implementations.iter().zip(&run.outcomes) {
        let faults: Vec<(&str, &Answer)> = corpus
            .queries()
            .zip(outcomes)
            .filter(|(_, o)| matches!(o, Answer::Timeout(_) | Answer::Crash(_)))
            .map(|((_, query), o)| (query.id.as_str(), o))
            .collect();
        if faults.is_empty() {
            continue;
        }
        if first {
            outln!("\ntimeouts and crashes (each adapter process was restarted after one):");
            first = false;
        }
        let count = |word| faults.iter().filter(|(_, o)| o.word() == word).count();
        outln!(
            "  {name}: {} timeout, {} crash",
            count("timeout"),
            count("crash")
        );
        for (id, outcome) in faults.iter().take(FAULTS_SHOWN) {
            outln!("    {id}: {}", visible_line(&outcome.to_string()));
        }
        if faults.len() > FAULTS_SHOWN {
            outln!(
                "    ... and {} more (every outcome: --json or --matrix FILE)",
                faults.len() - FAULTS_SHOWN
            );
        }
    }
}

/// The slowest cases of each implementation, with their wall time.
fn print_slowest(corpus: &Corpus, run: &Run, width: usize) {
    outln!("\nslowest cases (wall time per case, a timeout's wait included):");
    for (i, name) in run.implementations.iter().enumerate() {
        let cases: Vec<String> = run
            .slowest_cases(i, SLOWEST_SHOWN)
            .into_iter()
            .map(|(c, time)| format!("{} {:.2} s", corpus.cases()[c].id, time.as_secs_f64()))
            .collect();
        outln!("  {name:<width$} {}", cases.join(", "));
    }
}

/// `text` on one line, long messages cut.
fn visible_line(text: &str) -> String {
    let line = text.replace(['\n', '\r'], " ");
    match line.char_indices().nth(400) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line,
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
                let faults: Vec<_> = queries
                    .iter()
                    .zip(&run.outcomes[i])
                    .filter(|(_, o)| matches!(o, Answer::Timeout(_) | Answer::Crash(_)))
                    .map(|((_, query), o)| serde_json::json!({"id": query.id, "outcome": o.to_string()}))
                    .collect();
                let slowest: Vec<_> = run
                    .slowest_cases(i, SLOWEST_SHOWN)
                    .into_iter()
                    .map(|(c, time)| serde_json::json!({"case": corpus.cases()[c].id, "seconds": time.as_secs_f64()}))
                    .collect();
                serde_json::json!({"implementation": s.name, "gating": gating[i],
                    "faults": faults, "slowest_cases": slowest,
                    "elapsed_s": run.elapsed[i].as_secs_f64(),
                    "queries_per_s": if qps.is_finite() { Some(qps) } else { None },
                    "per_level": levels, "failures": failures, "outcomes": outcomes})
            })
            .collect(),
    )
}
