//! `reptest run`: the corpus through implementations, pass rates and failures.

use super::{CorpusArg, Outcome};
use reptest::runner::Run;
use reptest::score::{self, Summary, Tally};
use reptest::Outcome as Answer;
use reptest_corpus::{Corpus, Level, OutcomeWord, Profile};
use std::path::PathBuf;
use std::process::ExitCode;

/// Run the corpus through implementations (default: every available one) and print pass
/// rates, speed and failures.
///
/// Every corpus query goes to each implementation, one implementation after another; the
/// summary gives the pass rate per level (MUST / SHOULD / MAY), the queries/s and wall
/// time of each, its timeouts, crashes and slowest cases, and the queries that did not
/// pass. On a terminal, stderr shows which implementation is running (n of N), its
/// queries/s and the time left for it (--quiet: nothing).
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
    /// Print the result as JSON instead: the report model of `reptest report` (its
    /// report.json), with every outcome, score and implementation.
    #[arg(long)]
    json: bool,
    /// Also write the outcome matrix as TSV: query id, expected verdict, one column per
    /// implementation with its outcome word.
    #[arg(long, value_name = "FILE")]
    matrix: Option<PathBuf>,
    #[command(flatten)]
    quiet: super::QuietArg,
}

pub fn run(args: Args) -> Outcome {
    let corpus = args.corpus.load()?;
    let explicit =
        !args.implementations.is_empty() && !args.implementations.iter().any(|name| name == "all");
    let implementations = super::selected(&args.implementations)?;
    let run = super::run_corpus_quiet(&corpus, &implementations, args.quiet.quiet);
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
        // One model for every machine-readable result: the report's (`reptest report`
        // writes the same as report.json).
        let infos: Vec<_> = implementations.iter().map(|i| i.info().clone()).collect();
        let report = reptest::report::Report::build(
            &corpus,
            &args.corpus.dir(),
            &run,
            &infos,
            &super::report::now_rfc3339(),
        );
        outln!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
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
    let lookup = run.lookup();
    for (_, query) in corpus.queries() {
        out.push_str(&query.id);
        out.push('\t');
        out.push_str(query.expect_for(profile).as_str());
        for i in 0..run.implementations.len() {
            out.push('\t');
            out.push_str(lookup.outcome(i, &query.id).map_or("-", |o| o.word()));
        }
        out.push('\n');
    }
    out
}

/// The wall time implementation `i` took for the whole corpus, in seconds.
fn seconds(run: &Run, i: usize) -> String {
    run.elapsed
        .get(i)
        .map_or("-".into(), |t| format!("{:.1}", t.as_secs_f64()))
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
        "{:<width$} {:<18} {:<18} {:<18} {:>11} {:>10} {:>9} {:>7}",
        "implementation",
        "MUST",
        "SHOULD",
        "MAY",
        "unsupported",
        "no verdict",
        "queries/s",
        "seconds"
    );
    for (i, s) in summaries.iter().enumerate() {
        let total = s.total();
        outln!(
            "{:<width$} {:<18} {:<18} {:<18} {:>11} {:>10} {:>9} {:>7}",
            s.name,
            cell(s.per_level.get(&Level::Must)),
            cell(s.per_level.get(&Level::Should)),
            cell(s.per_level.get(&Level::May)),
            total.unsupported,
            total.no_verdict,
            speed(run, i),
            seconds(run, i)
        );
    }
    print_faults(corpus, run);
    print_slowest(run, width);
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
    let lookup = run.lookup();
    for (i, name) in run.implementations.iter().enumerate() {
        let faults: Vec<(&str, &Answer)> = corpus
            .queries()
            .filter_map(|(_, query)| Some((query.id.as_str(), lookup.outcome(i, &query.id)?)))
            .filter(|(_, o)| matches!(o, Answer::Timeout(_) | Answer::Crash(_)))
            .collect();
        if faults.is_empty() {
            continue;
        }
        if first {
            outln!("\ntimeouts and crashes (each adapter process was restarted after one):");
            first = false;
        }
        let count = |word| faults.iter().filter(|(_, o)| o.kind() == word).count();
        outln!(
            "  {name}: {} timeout, {} crash",
            count(OutcomeWord::Timeout),
            count(OutcomeWord::Crash)
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
fn print_slowest(run: &Run, width: usize) {
    outln!("\nslowest cases (wall time per case, a timeout's wait included):");
    for (i, name) in run.implementations.iter().enumerate() {
        let cases: Vec<String> = run
            .slowest_cases(i, SLOWEST_SHOWN)
            .into_iter()
            .map(|(case, time)| format!("{case} {:.2} s", time.as_secs_f64()))
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
